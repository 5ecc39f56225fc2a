package dev.agora.exchange.api;

import dev.agora.exchange.matching.MatchingEngine;
import dev.agora.exchange.matching.Result;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** An account's orders: for the account's owner or an admin (checked with the command, on the engine's thread). */
@RestController
@RequestMapping("/api/exchange/accounts/{accountId}/orders")
class OrderController {

    private final ExchangeGateway exchange;

    OrderController(ExchangeGateway exchange) {
        this.exchange = exchange;
    }

    /** Places a limit order; the reply shows it after matching (executions that happened at once). */
    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
    ApiModels.OrderView place(
            @PathVariable @Pattern(regexp = ApiModels.ACCOUNT_ID) String accountId,
            @Valid @RequestBody ApiModels.PlaceOrder request) {
        return view(
                exchange.completed(exchange.callOnAccount(accountId, engine -> placed(engine, accountId, request))));
    }

    @GetMapping("/{orderId}")
    ApiModels.OrderView query(
            @PathVariable @Pattern(regexp = ApiModels.ACCOUNT_ID) String accountId,
            @PathVariable @Positive long orderId) {
        return view(exchange.completed(exchange.callOnAccount(accountId, engine -> engine.query(accountId, orderId))));
    }

    /** Cancels the open part; the reply shows the order as canceled. */
    @DeleteMapping("/{orderId}")
    ApiModels.OrderView cancel(
            @PathVariable @Pattern(regexp = ApiModels.ACCOUNT_ID) String accountId,
            @PathVariable @Positive long orderId) {
        return view(exchange.completed(exchange.callOnAccount(accountId, engine -> engine.cancel(accountId, orderId))));
    }

    private static Result placed(MatchingEngine engine, String accountId, ApiModels.PlaceOrder request) {
        Result result = engine.placeOrder(accountId, request.symbol(), request.amount(), request.limit());
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
