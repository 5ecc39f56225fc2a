package dev.agora.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * While a push of a book to a frontend waits for its acknowledgement, later changes of that book wait for it and then
 * go to that frontend as one message with the newest version; each write is answered only once the message covering
 * its version was acknowledged.
 */
class CoalescedInvalidationTest extends CatalogTestSupport {

    @Test
    void changesOfABookWhileItsPushIsUnacknowledgedGoAsOneMessageWithTheNewestVersion() throws Exception {
        long id = newBook("coalesced", 3).path("id").asLong();
        List<Future<Response>> restocks;
        FRONTEND.holdAcknowledgements();
        try (ExecutorService writers = Executors.newFixedThreadPool(3)) {
            try {
                Future<Response> first = writers.submit(() -> restock(id));
                awaitPushed(FRONTEND, id, 2);
                // Each later change reaches the other frontend, so it has been announced to every frontend.
                Future<Response> second = writers.submit(() -> restock(id));
                awaitPushed(OTHER_FRONTEND, id, 3);
                Future<Response> third = writers.submit(() -> restock(id));
                awaitPushed(OTHER_FRONTEND, id, 4);
                restocks = List.of(first, second, third);

                assertThat(versionsPushedFor(id))
                        .as("nothing more while version 2 is unacknowledged")
                        .containsExactly(1L, 2L);
                assertThat(restocks)
                        .as("no write answered before the frontend heard of it")
                        .noneMatch(Future::isDone);
            } finally {
                FRONTEND.releaseAcknowledgements();
            }
            for (Future<Response> restock : restocks) {
                assertThat(restock.get(10, TimeUnit.SECONDS).status()).isEqualTo(200);
            }
        }

        assertThat(versionsPushedFor(id)).as("versions 3 and 4 as one message").containsExactly(1L, 2L, 4L);
        assertThat(book(id).path("version").asLong()).isEqualTo(4);
    }

    private Response restock(long id) {
        return post("/admin/books/" + id + "/restock", "{\"quantity\":1}", AUTHORIZATION, admin());
    }

    private static void awaitPushed(FakeFrontend frontend, long bookId, long version) {
        await().atMost(Duration.ofSeconds(2))
                .pollInterval(Duration.ofMillis(5))
                .until(() -> frontend.receivedFor(bookId).stream()
                        .anyMatch(r -> r.body().path("version").asLong() == version));
    }

    private static List<Long> versionsPushedFor(long bookId) {
        return FRONTEND.receivedFor(bookId).stream()
                .map(r -> r.body().path("version").asLong())
                .toList();
    }
}
