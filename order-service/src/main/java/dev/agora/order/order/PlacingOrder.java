package dev.agora.order.order;

import java.math.BigDecimal;
import java.util.Optional;
import org.springframework.stereotype.Service;

/**
 * The buy saga: record the order as PENDING under its buyer's idempotency key, reserve the stock at the catalog
 * (idempotent by order id), record the outcome. Each step is safe to repeat, so a retry with the same key,
 * a concurrent duplicate, or the recovery sweeper can drive a PENDING order again at any point, also after
 * a crash between the steps, and stock is still taken at most once. A buy is answered once the catalog has
 * decided; an outcome the catalog records is written after the answer ({@link OutcomeWriter}). Under load the
 * PENDING orders of many buys are recorded in one commit ({@link PendingWriter}).
 */
@Service
public class PlacingOrder {

    private final Orders orders;
    private final PendingWriter pending;
    private final Stock stock;
    private final OutcomeWriter outcomes;

    PlacingOrder(Orders orders, PendingWriter pending, Stock stock, OutcomeWriter outcomes) {
        this.orders = orders;
        this.pending = pending;
        this.stock = stock;
        this.outcomes = outcomes;
    }

    public sealed interface Result {}

    /** The buyer's order under this key; final unless the catalog could not be reached (then still PENDING). */
    public record Placed(Order order) implements Result {}

    /** The buyer's key already belongs to an order of theirs for another book or quantity. */
    public record KeyReused(Order existing) implements Result {}

    /** @param owner the buyer, whose keys these are; empty for an anonymous buy */
    public Result place(Optional<String> owner, String idempotencyKey, long bookId, int quantity) {
        String buyer = owner.orElse(null);
        Order order = pending.insert(idempotencyKey, buyer, bookId, quantity)
                .or(() -> orders.findByKey(idempotencyKey, buyer))
                .orElseThrow();
        if (!order.isFor(bookId, quantity)) return new KeyReused(order);
        if (!order.isPending()) return new Placed(order);
        return new Placed(decide(order, reserve(order), Writing.AFTER_ANSWER));
    }

    /** Asks the catalog for the order's stock and records the answer; a PENDING order stays so if none came. */
    public Order drive(Order order) {
        return decide(order, reserve(order), Writing.BEFORE_ANSWER);
    }

    private Stock.Answer reserve(Order order) {
        return stock.reserve(order.id(), order.bookId(), order.quantity());
    }

    /** Records a decision the catalog already holds ({@link Stock#decided}); no reservation is made. */
    Order settle(Order order, Stock.Answer decided) {
        return decide(order, decided, Writing.BEFORE_ANSWER);
    }

    private enum Writing {
        BEFORE_ANSWER,
        /** Only for outcomes the catalog records: it can answer for the order until the row is written. */
        AFTER_ANSWER
    }

    private Order decide(Order order, Stock.Answer answer, Writing writing) {
        return switch (answer) {
            case Stock.Reserved reserved -> write(order, OrderStatus.CONFIRMED, reserved.total(), null, writing);
            case Stock.OutOfStock ignored -> write(order, OrderStatus.REJECTED, null, Rejection.OUT_OF_STOCK, writing);
            case Stock.UnknownBook ignored ->
                write(order, OrderStatus.REJECTED, null, Rejection.UNKNOWN_BOOK, Writing.BEFORE_ANSWER);
            case Stock.Conflicting ignored ->
                write(order, OrderStatus.REJECTED, null, Rejection.RESERVATION_CONFLICT, Writing.BEFORE_ANSWER);
            case Stock.Unavailable ignored -> order;
        };
    }

    private Order write(Order order, OrderStatus status, BigDecimal total, Rejection rejection, Writing writing) {
        return switch (writing) {
            case BEFORE_ANSWER -> orders.finish(order.id(), status, total, rejection);
            case AFTER_ANSWER -> outcomes.write(order, status, total, rejection);
        };
    }
}
