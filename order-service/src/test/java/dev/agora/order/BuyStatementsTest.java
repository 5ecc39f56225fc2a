package dev.agora.order;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.testing.StatementCounter;
import java.time.Duration;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * What one buy costs the order database, counted by Hibernate's session events on the buy's own request thread and
 * on the outcome writer that records its confirmation after the answer (order-service/README.md, "Data tier"). A
 * change that makes a buy send more statements or commit more often fails here: a buy is the hot path.
 */
@Order(1)
class BuyStatementsTest extends OrderTestSupport {

    /** The PENDING insert, then the confirmation that counts it in the tally and confirms the order. */
    static final long STATEMENTS_PER_BUY = 2;
    /** The PENDING order's, then its outcome's. */
    static final long COMMITS_PER_BUY = 2;

    /** The request thread, the writer that records its PENDING order for it (group commit), the outcome writer. */
    private static final Predicate<String> THE_BUYS_THREADS = thread -> thread.contains("-exec-")
            || thread.equals("order-pending-writer")
            || thread.startsWith("order-outcome-writer-");

    @Test
    void aConfirmedBuyMakesTwoStatementsInTwoCommits() {
        long bookId = newBook(5);
        buy(newKey(), bookId, 1); // the first use of each statement on this node may cost more; count another
        awaitConfirmed(bookId, 1);
        StatementCounter.reset();

        Response bought = buy(newKey(), bookId, 1);

        assertThat(bought.status()).isEqualTo(201);
        awaitConfirmed(bookId, 2);
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> StatementCounter.on(THE_BUYS_THREADS).commits() >= COMMITS_PER_BUY);
        StatementCounter.Counts counts = StatementCounter.on(THE_BUYS_THREADS);
        assertThat(counts.statements()).as("statements of one buy").isEqualTo(STATEMENTS_PER_BUY);
        assertThat(counts.commits()).as("commits of one buy").isEqualTo(COMMITS_PER_BUY);
    }

    private void awaitConfirmed(long bookId, long confirmed) {
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> ordersFor(bookId, "CONFIRMED") == confirmed);
    }
}
