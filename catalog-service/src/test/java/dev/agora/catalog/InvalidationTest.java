package dev.agora.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agora.common.web.WritingFrontend;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Every committed change of a book reaches every frontend before the write is answered, carrying the new
 * version; a frontend that cannot be reached costs a counted failure, never the write; one that does not acknowledge
 * costs the write about one lease, after which it gets no lease from this catalog.
 */
class InvalidationTest extends CatalogTestSupport {

    @Autowired
    MeterRegistry meters;

    @Test
    void aNewTitleIsPushedAsSearchAffectingBeforeTheRegistrationReturns() {
        JsonNode book = newBook("pushed", 3);

        List<FakeFrontend.Received> pushed =
                FRONTEND.receivedFor(book.path("id").asLong());

        assertThat(pushed).hasSize(1);
        assertThat(pushed.getFirst().caller()).isEqualTo(CATALOG_CLIENT);
        JsonNode body = pushed.getFirst().body();
        assertThat(body.path("version").asLong()).isEqualTo(1);
        assertThat(body.path("topic").asString()).isEqualTo("pushed");
        assertThat(body.path("searchAffected").asBoolean()).isTrue();
    }

    @Test
    void aPriceChangeIsPushedWithTheNewVersionBeforeTheWriteReturns() {
        long id = newBook("pushed", 3).path("id").asLong();

        Response changed = put("/admin/books/" + id + "/price", "{\"price\":3.25}", AUTHORIZATION, admin());

        assertThat(changed.status()).isEqualTo(200);
        assertThat(versionsPushedFor(id)).containsExactly(1L, 2L);
        assertThat(FRONTEND.receivedFor(id)
                        .getLast()
                        .body()
                        .path("searchAffected")
                        .asBoolean())
                .isFalse();
    }

    @Test
    void aRestockIsPushedWithTheNewVersionBeforeTheWriteReturns() {
        long id = newBook("pushed", 3).path("id").asLong();

        Response restocked = post("/admin/books/" + id + "/restock", "{\"quantity\":4}", AUTHORIZATION, admin());

        assertThat(versionsPushedFor(id))
                .containsExactly(1L, restocked.json().path("version").asLong());
    }

    @Test
    void aReservationThatTookStockIsPushedBeforeItReturnsAndARepeatAnnouncesTheSameVersionAgain() {
        long id = newBook("pushed", 3).path("id").asLong();
        long orderId = nextOrderId();

        reserve(orderId, id, 2);
        List<Long> afterFirst = versionsPushedFor(id);
        long reservedVersion = book(id).path("version").asLong();
        // A repeat (a hedged buy) may be answered while the first call is still pushing: it pushes too.
        reserve(orderId, id, 2);

        assertThat(afterFirst).containsExactly(1L, reservedVersion);
        assertThat(versionsPushedFor(id)).containsExactly(1L, reservedVersion, reservedVersion);
        assertThat(book(id).path("version").asLong()).isEqualTo(reservedVersion);
        assertThat(book(id).path("stock").asLong()).isEqualTo(1);
    }

    @Test
    void aReservationThroughAFrontendIsStillPushedToThatFrontendAndToEveryOther() {
        long id = newBook("pushed", 3).path("id").asLong();
        double deadFailuresBefore = deadFrontendFailures();

        Response reserved = post(
                "/internal/reservations",
                """
                {"orderId":%d,"bookId":%d,"quantity":1}""".formatted(nextOrderId(), id),
                AUTHORIZATION,
                service(),
                WritingFrontend.HEADER,
                FRONTEND.url() + "/");

        assertThat(reserved.json().path("outcome").asString()).isEqualTo("RESERVED");
        long reservedVersion = book(id).path("version").asLong();
        // The writing frontend's push is not awaited (it drops the book itself), but it is sent.
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(versionsPushedFor(id)).containsExactly(1L, reservedVersion));
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(deadFrontendFailures()).isEqualTo(deadFailuresBefore + 1));
    }

    @Test
    void aWritingFrontendTheCatalogDoesNotKnowLeavesNoFrontendOut() {
        long id = newBook("pushed", 3).path("id").asLong();

        post(
                "/internal/reservations",
                """
                {"orderId":%d,"bookId":%d,"quantity":1}""".formatted(nextOrderId(), id),
                AUTHORIZATION,
                service(),
                WritingFrontend.HEADER,
                "not a url");

        assertThat(versionsPushedFor(id))
                .containsExactly(1L, book(id).path("version").asLong());
    }

    @Test
    void outOfStockChangesNothingAndPushesNothing() {
        long id = newBook("pushed", 1).path("id").asLong();

        reserve(nextOrderId(), id, 2);

        assertThat(versionsPushedFor(id)).containsExactly(1L);
    }

    @Test
    void anUnreachableFrontendDoesNotFailTheWriteAndIsCounted() {
        double failuresBefore = deadFrontendFailures();
        long id = newBook("unreachable", 3).path("id").asLong();

        Response restocked = post("/admin/books/" + id + "/restock", "{\"quantity\":4}", AUTHORIZATION, admin());
        Response reserved = reserve(nextOrderId(), id, 1);

        assertThat(restocked.status()).isEqualTo(200);
        assertThat(reserved.json().path("outcome").asString()).isEqualTo("RESERVED");
        assertThat(book(id).path("stock").asLong()).isEqualTo(6);
        // Registration, restock and reservation each failed to reach the dead frontend once.
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(deadFrontendFailures()).isEqualTo(failuresBefore + 3));
    }

    @Test
    void aFrontendThatStopsAcknowledgingDelaysAWriteByAboutOneLeaseAndIsCounted() {
        long id = newBook("silent", 3).path("id").asLong();
        double failuresBefore = failures(FRONTEND.url());
        FRONTEND.silence();
        Response restocked;
        long millis;
        try {
            long started = System.nanoTime();
            restocked = post("/admin/books/" + id + "/restock", "{\"quantity\":4}", AUTHORIZATION, admin());
            millis = (System.nanoTime() - started) / 1_000_000;
        } finally {
            FRONTEND.acknowledgeAgain();
        }

        assertThat(restocked.status()).isEqualTo(200);
        // The lease is 3 s here (CatalogTestSupport); the fake never held one, so nothing more is waited for.
        assertThat(millis).as("waited for the acknowledgement one lease long").isBetween(2_900L, 20_000L);
        assertThat(versionsPushedFor(id))
                .containsExactly(1L, restocked.json().path("version").asLong());
        assertThat(failures(FRONTEND.url())).isEqualTo(failuresBefore + 1);

        Response next = post("/admin/books/" + id + "/restock", "{\"quantity\":1}", AUTHORIZATION, admin());
        assertThat(versionsPushedFor(id))
                .last()
                .isEqualTo(next.json().path("version").asLong());
        assertThat(failures(FRONTEND.url())).as("acknowledged again").isEqualTo(failuresBefore + 1);
    }

    @Test
    void aSessionTheFrontendDroppedIsReopenedAndTheWriteStillReachesItBeforeItReturns() {
        long id = newBook("dropped", 3).path("id").asLong();
        int opened = OTHER_FRONTEND.sessionsOpened();

        for (int i = 0; i < 3; i++) {
            OTHER_FRONTEND.dropSessions();
            Response restocked = post("/admin/books/" + id + "/restock", "{\"quantity\":1}", AUTHORIZATION, admin());

            assertThat(restocked.status()).isEqualTo(200);
            long version = restocked.json().path("version").asLong();
            assertThat(OTHER_FRONTEND.receivedFor(id).stream()
                            .map(r -> r.body().path("version").asLong()))
                    .contains(version);
        }
        assertThat(OTHER_FRONTEND.sessionsOpened()).isGreaterThan(opened);
    }

    private List<Long> versionsPushedFor(long bookId) {
        return FRONTEND.receivedFor(bookId).stream()
                .map(r -> r.body().path("version").asLong())
                .toList();
    }

    private double deadFrontendFailures() {
        return failures(DEAD_FRONTEND);
    }

    private double failures(String frontend) {
        Counter counter = meters.find("agora.invalidation.failures")
                .tag("target", frontend)
                .counter();
        return counter == null ? 0 : counter.count();
    }
}
