package dev.agora.order.order;

import java.math.BigDecimal;
import java.net.URI;
import java.util.Optional;

/** The catalog's stock, as the order saga needs it. Reserving is idempotent by order id. */
public interface Stock {

    /**
     * @param writingFrontend the frontend the buy came through, passed on to the catalog
     *     ({@link dev.agora.common.web.WritingFrontend}); empty when no frontend waits (recovery)
     */
    Answer reserve(long orderId, long bookId, int quantity, Optional<URI> writingFrontend);

    /**
     * The catalog's decision on an order's reservation, without making one: {@link Reserved} or
     * {@link OutOfStock}, {@link Unavailable} when the catalog could not be asked, empty when it holds no
     * reservation for the order.
     */
    Optional<Answer> decided(long orderId);

    sealed interface Answer {}

    record Reserved(BigDecimal total) implements Answer {}

    record OutOfStock() implements Answer {}

    record UnknownBook() implements Answer {}

    /** The catalog holds another reservation under this order id. */
    record Conflicting() implements Answer {}

    /** No catalog replica gave an answer; whether stock was taken is unknown until a later attempt. */
    record Unavailable(String why) implements Answer {}
}
