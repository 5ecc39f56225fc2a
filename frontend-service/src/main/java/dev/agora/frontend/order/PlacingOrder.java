package dev.agora.frontend.order;

import dev.agora.frontend.book.BookCache;
import java.util.UUID;
import org.springframework.web.ErrorResponseException;

/**
 * A buy through the frontend. Every order carries an idempotency key (the client's, or one made here), so
 * a retry on another order replica after a failure can never buy twice.
 */
final class PlacingOrder {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    record Placed(OrderView order, String idempotencyKey) {}

    private final OrderClient orders;
    private final BookCache cache;

    PlacingOrder(OrderClient orders, BookCache cache) {
        this.orders = orders;
        this.cache = cache;
    }

    /** @param bearer the token the order tier sees: the buyer's, or the frontend's for an anonymous buy */
    Placed place(OrderRequest request, String clientKey, String bearer) {
        String key = clientKey != null ? clientKey : UUID.randomUUID().toString();
        try {
            return new Placed(orders.place(request, key, bearer), key);
        } catch (ErrorResponseException failed) {
            // A client that sent no key learns the one made here, so it can retry a 503 without buying twice.
            failed.getHeaders().set(IDEMPOTENCY_KEY, key);
            throw failed;
        } finally {
            // The catalog does not wait for its push to this frontend (it was named as the writer), so the
            // book is dropped here, after the buy's commit and before the client hears of it; this also
            // covers an out-of-stock answer that shows the cached stock is behind.
            cache.evictAfterOwnWrite(request.bookId());
        }
    }
}
