package dev.agora.exchange.store;

import jakarta.persistence.QueryHint;
import java.util.stream.Stream;
import org.hibernate.jpa.HibernateHints;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.jpa.repository.QueryHints;
import org.springframework.data.repository.Repository;

/** Every position, for the engine's start-up and takeover. */
interface PositionRows extends Repository<PositionRow, PositionRow.Key> {

    @Query("select p from PositionRow p")
    @QueryHints({
        @QueryHint(name = HibernateHints.HINT_FETCH_SIZE, value = ExchangeStore.FETCH_SIZE),
        @QueryHint(name = HibernateHints.HINT_READ_ONLY, value = "true")
    })
    Stream<PositionRow> streamAll();
}
