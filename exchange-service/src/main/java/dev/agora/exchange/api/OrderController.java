package dev.agora.exchange.api;

import dev.agora.common.api.Access;
import dev.agora.common.problem.ProblemException;
import dev.agora.common.problem.ProblemTypes;
import dev.agora.common.security.Roles;
import dev.agora.exchange.matching.MatchingEngine;
import dev.agora.exchange.matching.Result;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** An account's orders: for the account's owner or an admin (checked with the command, on the engine's thread). */
@RestController
@RequestMapping("/api/exchange/accounts/{accountId}/orders")
@Tag(name = "exchange")
class OrderController {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    static final URI KEY_REUSED = ProblemTypes.of("idempotency-key-reused");

    private final ExchangeGateway exchange;

    OrderController(ExchangeGateway exchange) {
        this.exchange = exchange;
    }

    /**
     * Places a limit order; the reply shows it after matching (executions that happened at once). With an
     * {@code Idempotency-Key} the order is placed once: the same key again (for the same account, as long as the
     * engine remembers it) answers with the order placed the first time, also after a takeover; the same key with
     * another order is refused with 422 and changes nothing.
     */
    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
    @Access(
            value = {Roles.TRADER, Roles.ADMIN},
            note = "a trader on the accounts they own")
    @Operation(
            operationId = "placeOrder",
            summary = "Place a limit order (a positive amount buys, a negative one sells)",
            description = "The same Idempotency-Key again answers the order placed the first time.",
            responses = {
                @ApiResponse(responseCode = "201", description = "Placed, as it stands after matching"),
                @ApiResponse(responseCode = "400", description = "Bad input, or not enough cash or shares"),
                @ApiResponse(responseCode = "403", description = "Someone else's account"),
                @ApiResponse(responseCode = "404", description = "No such account"),
                @ApiResponse(responseCode = "422", description = "The key was used for another order")
            })
    ApiModels.OrderView place(
            @PathVariable @Pattern(regexp = ApiModels.ACCOUNT_ID) String accountId,
            @RequestHeader(name = IDEMPOTENCY_KEY, required = false) @Pattern(regexp = ApiModels.IDEMPOTENCY_KEY)
                    String idempotencyKey,
            @Valid @RequestBody ApiModels.PlaceOrder request) {
        ApiModels.OrderView order = view(exchange.completed(
                exchange.callOnAccount(accountId, engine -> placed(engine, accountId, request, idempotencyKey))));
        if (idempotencyKey != null && !request.describes(order)) {
            throw new ProblemException(
                    HttpStatus.UNPROCESSABLE_CONTENT,
                    KEY_REUSED,
                    "Idempotency-Key " + idempotencyKey + " was used for order " + order.id()
                            + ", a different order; send a new key for a new order");
        }
        return order;
    }

    @GetMapping("/{orderId}")
    @Access(
            value = {Roles.TRADER, Roles.ADMIN},
            note = "a trader on the accounts they own")
    @Operation(
            operationId = "getExchangeOrder",
            summary = "An order: what is open, executed and canceled",
            responses = {
                @ApiResponse(responseCode = "200", description = "The order"),
                @ApiResponse(responseCode = "403", description = "Someone else's account"),
                @ApiResponse(responseCode = "404", description = "No such order")
            })
    ApiModels.OrderView query(
            @PathVariable @Pattern(regexp = ApiModels.ACCOUNT_ID) String accountId,
            @PathVariable @Positive long orderId) {
        return view(exchange.completed(exchange.callOnAccount(accountId, engine -> engine.query(accountId, orderId))));
    }

    /** Cancels the open part; the reply shows the order as canceled. */
    @DeleteMapping("/{orderId}")
    @Access(
            value = {Roles.TRADER, Roles.ADMIN},
            note = "a trader on the accounts they own")
    @Operation(
            operationId = "cancelOrder",
            summary = "Cancel what is open of an order",
            responses = {
                @ApiResponse(responseCode = "200", description = "The order, canceled"),
                @ApiResponse(responseCode = "403", description = "Someone else's account"),
                @ApiResponse(responseCode = "404", description = "No such order")
            })
    ApiModels.OrderView cancel(
            @PathVariable @Pattern(regexp = ApiModels.ACCOUNT_ID) String accountId,
            @PathVariable @Positive long orderId) {
        return view(exchange.completed(exchange.callOnAccount(accountId, engine -> engine.cancel(accountId, orderId))));
    }

    private static Result placed(
            MatchingEngine engine, String accountId, ApiModels.PlaceOrder request, String idempotencyKey) {
        Result result =
                engine.placeOrder(accountId, request.symbol(), request.amount(), request.limit(), idempotencyKey);
        return result instanceof Result.OrderOpened opened ? engine.query(accountId, opened.orderId()) : result;
    }

    private static ApiModels.OrderView view(Result result) {
        return switch (result) {
            case Result.OrderStatus status -> ApiModels.OrderView.of(status.order());
            case Result.OrderCanceled canceled -> ApiModels.OrderView.of(canceled.order());
            case Result.Rejected rejected -> throw ExchangeGateway.problem(rejected);
            default -> throw new IllegalStateException("Unexpected result " + result);
        };
    }
}
