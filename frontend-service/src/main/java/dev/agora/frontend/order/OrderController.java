package dev.agora.frontend.order;

import dev.agora.common.api.Access;
import dev.agora.common.security.Callers;
import dev.agora.common.security.Roles;
import dev.agora.common.security.ServiceTokens;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.net.URI;
import java.util.List;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/** Buy and order reads: the public API and the classic {@code POST /buy/{id}}. */
@RestController
@Tag(name = "orders", description = "Buying books and reading orders")
class OrderController {

    /** A page of orders as the order tier answers it (passed on as it is), for the API's description. */
    record OrderPage(List<OrderView> content, int page, int size, long totalElements) {}

    private final PlacingOrder placing;
    private final OrderClient orders;
    private final ServiceTokens serviceTokens;

    OrderController(PlacingOrder placing, OrderClient orders, ServiceTokens serviceTokens) {
        this.placing = placing;
        this.orders = orders;
        this.serviceTokens = serviceTokens;
    }

    @PostMapping("/api/orders")
    @Access(Roles.CUSTOMER)
    @Operation(
            operationId = "buy",
            summary = "Buy copies of a book",
            description = "The same Idempotency-Key again answers the first buy's order and buys nothing more; a key"
                    + " is made when none is sent, and every answer names it.",
            responses = {
                @ApiResponse(
                        responseCode = "201",
                        description = "Bought (or the order a repeated key bought)",
                        headers = @Header(name = PlacingOrder.IDEMPOTENCY_KEY, schema = @Schema(type = "string"))),
                @ApiResponse(responseCode = "400", description = "Bad input"),
                @ApiResponse(responseCode = "404", description = "No such book"),
                @ApiResponse(responseCode = "409", description = "Out of stock"),
                @ApiResponse(responseCode = "422", description = "The key was used for another buy")
            })
    ResponseEntity<OrderView> place(
            @Valid @RequestBody OrderRequest request,
            @RequestHeader(name = PlacingOrder.IDEMPOTENCY_KEY, required = false) @Size(min = 1, max = 100)
                    String idempotencyKey) {
        return placed(request, idempotencyKey, callerToken());
    }

    /** The seed's lab clients buy anonymously: the order has no owner. A signed-in customer's buy is theirs. */
    @PostMapping("/buy/{id}")
    @Access
    @Operation(
            operationId = "classicBuy",
            summary = "Buy copies of a book (the lab systems' route; anonymous buys have no owner)",
            responses = {
                @ApiResponse(responseCode = "201", description = "Bought"),
                @ApiResponse(responseCode = "404", description = "No such book"),
                @ApiResponse(responseCode = "409", description = "Out of stock")
            })
    ResponseEntity<OrderView> classicBuy(
            @PathVariable @Positive long id,
            @RequestParam(defaultValue = "1") @Positive @Max(OrderRequest.MAX_QUANTITY) int quantity,
            @RequestHeader(name = PlacingOrder.IDEMPOTENCY_KEY, required = false) @Size(min = 1, max = 100)
                    String idempotencyKey) {
        String bearer = Callers.hasRole(Roles.CUSTOMER) ? callerToken() : serviceTokens.bearer();
        return placed(new OrderRequest(id, quantity), idempotencyKey, bearer);
    }

    private ResponseEntity<OrderView> placed(OrderRequest request, String idempotencyKey, String bearer) {
        PlacingOrder.Placed placed = placing.place(request, idempotencyKey, bearer);
        return ResponseEntity.created(URI.create("/api/orders/" + placed.order().orderId()))
                .header(PlacingOrder.IDEMPOTENCY_KEY, placed.idempotencyKey())
                .body(placed.order());
    }

    @GetMapping("/api/orders/{id}")
    @Access(
            value = {Roles.CUSTOMER, Roles.ADMIN},
            note = "a customer reads their own orders")
    @Operation(
            operationId = "getOrder",
            summary = "One order",
            responses = {
                @ApiResponse(responseCode = "200", description = "The order"),
                @ApiResponse(responseCode = "403", description = "Someone else's order"),
                @ApiResponse(responseCode = "404", description = "No such order")
            })
    OrderView find(@PathVariable @Positive long id) {
        return orders.find(id, callerToken());
    }

    @GetMapping("/api/orders")
    @Access(
            value = {Roles.CUSTOMER, Roles.ADMIN},
            note = "a customer's own orders; an admin's: all")
    @Operation(
            operationId = "listOrders",
            summary = "The caller's orders, newest first",
            responses =
                    @ApiResponse(
                            responseCode = "200",
                            description = "A page of orders",
                            content = @Content(schema = @Schema(implementation = OrderPage.class))))
    JsonNode page(
            @RequestParam(defaultValue = "0") @Min(0) @Max(1_000_000) int page,
            @RequestParam(defaultValue = "20") @Positive @Max(100) int size) {
        return orders.page(page, size, callerToken());
    }

    /** Present: the security rules let only signed-in callers reach the routes that relay it. */
    private static String callerToken() {
        return Callers.bearerToken().orElseThrow(() -> new IllegalStateException("No caller token to relay"));
    }
}
