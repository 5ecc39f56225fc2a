package dev.agora.order.order;

import java.net.URI;
import java.util.Optional;
import org.springframework.stereotype.Service;

/**
 * The buy saga: record the order as PENDING under its idempotency key, reserve the stock at the catalog
 * (idempotent by order id), record the outcome. Each step is safe to repeat, so a retry with the same key,
 * a concurrent duplicate, or the recovery sweeper can drive a PENDING order again at any point, also after
 * a crash between the steps, and stock is still taken at most once.
 */
@Service
public class PlacingOrder {

    private final Orders orders;
    private final Stock stock;

    PlacingOrder(Orders orders, Stock stock) {
        this.orders = orders;
        this.stock = stock;
    }

    public sealed interface Result {}

    /** The order under this key; final unless the catalog could not be reached (then still PENDING). */
    public record Placed(Order order) implements Result {}

    /** The key already belongs to an order for another book or quantity. */
    public record KeyReused(Order existing) implements Result {}

    /** @param writingFrontend the frontend the buy came through, if it named itself */
    public Result place(String idempotencyKey, long bookId, int quantity, Optional<URI> writingFrontend) {
        Order order = orders.insertPending(idempotencyKey, bookId, quantity)
                .or(() -> orders.findByKey(idempotencyKey))
                .orElseThrow();
        if (!order.isFor(bookId, quantity)) return new KeyReused(order);
        return new Placed(order.isPending() ? drive(order, writingFrontend) : order);
    }

    /** Asks the catalog for the order's stock and records the answer; a PENDING order stays so if none came. */
    public Order drive(Order order) {
        return drive(order, Optional.empty());
    }

    private Order drive(Order order, Optional<URI> writingFrontend) {
        return switch (stock.reserve(order.id(), order.bookId(), order.quantity(), writingFrontend)) {
            case Stock.Reserved reserved -> orders.finish(order.id(), OrderStatus.CONFIRMED, reserved.total(), null);
            case Stock.OutOfStock ignored ->
                orders.finish(order.id(), OrderStatus.REJECTED, null, Rejection.OUT_OF_STOCK);
            case Stock.UnknownBook ignored ->
                orders.finish(order.id(), OrderStatus.REJECTED, null, Rejection.UNKNOWN_BOOK);
            case Stock.Conflicting ignored ->
                orders.finish(order.id(), OrderStatus.REJECTED, null, Rejection.RESERVATION_CONFLICT);
            case Stock.Unavailable ignored -> order;
        };
    }
}
