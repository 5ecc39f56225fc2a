package dev.agora.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.testing.StatementCounter;
import java.time.Duration;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * What one reservation (the catalog's part of a buy) costs the catalog database, counted by Hibernate's session
 * events on the request's thread (catalog-service/README.md, "Data tier"). A change that makes a reservation send
 * more statements or commit more often fails here: a reservation is on every buy's path.
 */
class ReservationStatementsTest extends CatalogTestSupport {

    /**
     * Lock the book ({@code SELECT ... FOR NO KEY UPDATE}), claim the order id and take the copies (one {@code INSERT}
     * with an {@code UPDATE}); decided alone: take the copies ({@code UPDATE ... RETURNING}), claim ({@code INSERT}).
     */
    static final long STATEMENTS_PER_RESERVATION = 2;

    /** Request threads, and the reservation writer's, which decides reservations for them (group commit). */
    private static final Predicate<String> REQUEST_THREADS =
            thread -> thread.contains("-exec-") || thread.equals("reservation-writer");

    @Test
    void aReservationMakesTwoStatementsInOneCommit() {
        long bookId = newBook("counted", 5).path("id").asLong();
        reserve(nextOrderId(), bookId, 1); // the first use of each statement on this node may cost more; count another
        awaitCommits(1);
        StatementCounter.reset();

        Response reserved = reserve(nextOrderId(), bookId, 1);

        assertThat(reserved.json().path("outcome").asString()).isEqualTo("RESERVED");
        awaitCommits(1);
        StatementCounter.Counts counts = StatementCounter.on(REQUEST_THREADS);
        assertThat(counts.statements()).as("statements of one reservation").isEqualTo(STATEMENTS_PER_RESERVATION);
        assertThat(counts.commits()).as("commits of one reservation").isEqualTo(1);
    }

    private static void awaitCommits(long commits) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> StatementCounter.on(REQUEST_THREADS).commits() >= commits);
    }
}
