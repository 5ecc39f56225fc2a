package dev.agora.exchange.store;

import jakarta.persistence.QueryHint;
import java.util.stream.Stream;
import org.hibernate.jpa.HibernateHints;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.jpa.repository.QueryHints;
import org.springframework.data.repository.Repository;

/** Every account, for the engine's start-up and takeover. */
interface AccountRows extends Repository<AccountRow, String> {

    @Query("select a from AccountRow a")
    @QueryHints({
        @QueryHint(name = HibernateHints.HINT_FETCH_SIZE, value = ExchangeStore.FETCH_SIZE),
        @QueryHint(name = HibernateHints.HINT_READ_ONLY, value = "true")
    })
    Stream<AccountRow> streamAll();
}
