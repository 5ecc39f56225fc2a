package dev.agora.frontend.order;

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

    OrderController(PlacingOrder placing, OrderClient orders) {
        this.placing = placing;
        this.orders = orders;
    }

    @PostMapping("/api/orders")
    ResponseEntity<OrderView> place(
            @Valid @RequestBody OrderRequest request,
            @RequestHeader(name = PlacingOrder.IDEMPOTENCY_KEY, required = false) @Size(min = 1, max = 100)
                    String idempotencyKey) {
        PlacingOrder.Placed placed = placing.place(request, idempotencyKey);
        return ResponseEntity.created(URI.create("/api/orders/" + placed.order().orderId()))
                .header(PlacingOrder.IDEMPOTENCY_KEY, placed.idempotencyKey())
                .body(placed.order());
    }

    @PostMapping("/buy/{id}")
    ResponseEntity<OrderView> classicBuy(
            @PathVariable @Positive long id,
            @RequestParam(defaultValue = "1") @Positive @Max(OrderRequest.MAX_QUANTITY) int quantity,
            @RequestHeader(name = PlacingOrder.IDEMPOTENCY_KEY, required = false) @Size(min = 1, max = 100)
                    String idempotencyKey) {
        return place(new OrderRequest(id, quantity), idempotencyKey);
    }

    @GetMapping("/api/orders/{id}")
    OrderView find(@PathVariable @Positive long id) {
        return orders.find(id);
    }

    @GetMapping("/api/orders")
    JsonNode page(
            @RequestParam(defaultValue = "0") @Min(0) @Max(1_000_000) int page,
            @RequestParam(defaultValue = "20") @Positive @Max(100) int size) {
        return orders.page(page, size);
    }
}
