package dev.agora.frontend.order;

import dev.agora.common.security.Callers;
import dev.agora.common.security.Roles;
import dev.agora.common.security.ServiceTokens;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.net.URI;
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
class OrderController {

    private final PlacingOrder placing;
    private final OrderClient orders;
    private final ServiceTokens serviceTokens;

    OrderController(PlacingOrder placing, OrderClient orders, ServiceTokens serviceTokens) {
        this.placing = placing;
        this.orders = orders;
        this.serviceTokens = serviceTokens;
    }

    @PostMapping("/api/orders")
    ResponseEntity<OrderView> place(
            @Valid @RequestBody OrderRequest request,
            @RequestHeader(name = PlacingOrder.IDEMPOTENCY_KEY, required = false) @Size(min = 1, max = 100)
                    String idempotencyKey) {
        return placed(request, idempotencyKey, callerToken());
    }

    /** The seed's lab clients buy anonymously: the order has no owner. A signed-in customer's buy is theirs. */
    @PostMapping("/buy/{id}")
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
    OrderView find(@PathVariable @Positive long id) {
        return orders.find(id, callerToken());
    }

    @GetMapping("/api/orders")
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
