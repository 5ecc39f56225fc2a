package dev.agora.order.order;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/** The catalog's stock, as the order saga needs it. Reserving is idempotent by order id. */
public interface Stock {

    Answer reserve(long orderId, long bookId, int quantity);

    /**
     * The catalog's decisions on these orders' reservations (at most {@link #MAX_ORDERS_PER_READ}), in one call and
     * without making any: {@link Reserved} or {@link OutOfStock} for each order it holds a reservation for.
     */
    Decisions decided(List<Long> orderIds);

    /** Most orders one {@link #decided} call may ask for: a page of orders. */
    int MAX_ORDERS_PER_READ = 100;

    sealed interface Decisions {}

    /** By order id; an order the catalog holds no reservation for is not among them. */
    record Known(Map<Long, Answer> byOrderId) implements Decisions {}

    /** No catalog replica answered. */
    record NotKnown(String why) implements Decisions {}

    sealed interface Answer {}

    record Reserved(BigDecimal total) implements Answer {}

    record OutOfStock() implements Answer {}

    record UnknownBook() implements Answer {}

    /** The catalog holds another reservation under this order id. */
    record Conflicting() implements Answer {}

    /** No catalog replica gave an answer; whether stock was taken is unknown until a later attempt. */
    record Unavailable(String why) implements Answer {}
}
