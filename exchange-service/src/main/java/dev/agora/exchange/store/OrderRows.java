package dev.agora.exchange.store;

import jakarta.persistence.QueryHint;
import java.util.List;
import java.util.stream.Stream;
import org.hibernate.jpa.HibernateHints;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.jpa.repository.QueryHints;
import org.springframework.data.repository.Repository;

/** The orders the engine rebuilds itself from: the open ones, the latest idempotency keys, the last id. */
interface OrderRows extends Repository<OrderRow, Long> {

    /** The open orders in time priority, through V6's partial index: start-up follows open interest, not history. */
    @Query("select o from OrderRow o where o.openShares > 0 order by o.id")
    @QueryHints({
        @QueryHint(name = HibernateHints.HINT_FETCH_SIZE, value = ExchangeStore.FETCH_SIZE),
        @QueryHint(name = HibernateHints.HINT_READ_ONLY, value = "true")
    })
    Stream<OrderRow> streamOpen();

    /** The latest keyed orders' keys, newest first, through V8's partial index. */
    @Query("select new dev.agora.exchange.store.OrderRows$OrderKey(o.accountId, o.clientKey, o.id) from OrderRow o"
            + " where o.clientKey is not null order by o.id desc")
    List<OrderKey> latestKeys(Pageable page);

    @Query("select coalesce(max(o.id), 0) from OrderRow o")
    long lastId();

    /** The idempotency key an account placed an order with. */
    record OrderKey(String accountId, String clientKey, long orderId) {}
}
