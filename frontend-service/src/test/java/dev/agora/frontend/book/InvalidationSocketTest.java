package dev.agora.frontend.book;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.agora.frontend.cluster.Books;
import dev.agora.frontend.cluster.BookstoreCluster;
import dev.agora.frontend.cluster.Http;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The catalogs' invalidation sessions at a real frontend (A of the test cluster), opened here as a catalog opens
 * them: only a service token opens one, an invalidation is applied before it is acknowledged, anything else closes
 * the session and changes nothing, and the frontend uses its cache only while every connected catalog grants it
 * leases.
 */
class InvalidationSocketTest {

    private static BookstoreCluster cluster;
    private static Http http;
    private static String frontend;
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private CatalogSocket socket;

    @BeforeAll
    static void start() {
        cluster = BookstoreCluster.get();
        http = new Http();
        frontend = cluster.frontend(0);
    }

    @AfterEach
    void closeSocket() {
        if (socket != null) socket.close();
        cluster.awaitCachesLeased();
    }

    @AfterAll
    static void closeClient() throws Exception {
        http.close();
    }

    /** One session, as a catalog holds it: every message the frontend sends lands in {@link #received}. */
    private static final class CatalogSocket implements WebSocket.Listener {
        final BlockingQueue<String> received = new LinkedBlockingQueue<>();
        final CompletableFuture<Integer> closed = new CompletableFuture<>();
        final StringBuilder partial = new StringBuilder();
        final WebSocket webSocket;
        volatile boolean granting;
        /** The JDK's WebSocket takes one send at a time: the test's and the lease replies' wait for each other. */
        private CompletableFuture<?> sending = CompletableFuture.completedFuture(null);

        CatalogSocket(String bearer) {
            WebSocket.Builder builder = CLIENT.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5));
            if (bearer != null) builder.header("Authorization", "Bearer " + bearer);
            webSocket = builder.buildAsync(
                            URI.create(frontend.replace("http://", "ws://") + "/internal/cache/invalidations"), this)
                    .join();
        }

        @Override
        public void onOpen(WebSocket webSocket) {
            webSocket.request(1);
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String message = partial.toString();
                partial.setLength(0);
                JsonNode json = Http.JSON.readTree(message);
                if (json.path("type").asString("").equals("renew")) {
                    if (granting) {
                        send(
                                webSocket,
                                "{\"type\":\"lease\",\"seq\":"
                                        + json.path("seq").asLong() + ",\"millis\":5000}");
                    }
                } else {
                    received.add(message);
                }
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closed.complete(statusCode);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            closed.complete(-1);
        }

        synchronized CompletableFuture<?> send(WebSocket webSocket, String message) {
            sending = sending.exceptionally(failed -> null).thenCompose(sent -> webSocket.sendText(message, true));
            return sending;
        }

        String say(String message) throws InterruptedException {
            send(webSocket, message).join();
            return received.poll(10, TimeUnit.SECONDS);
        }

        int closedWith() throws Exception {
            return closed.get(10, TimeUnit.SECONDS);
        }

        void close() {
            webSocket.abort();
        }
    }

    private static String catalogToken() {
        return cluster.tokens().catalogService();
    }

    /** A new book, cached at the frontend while this test's session, granting leases, is open. */
    private long cachedUnderThisSession(String title) {
        long id = Books.register(http, cluster, title, 5);
        socket = new CatalogSocket(catalogToken());
        socket.granting = true;
        cluster.awaitCachesLeased();
        // Cached first: a read may miss while the new book's own announcements or a lease renewal are in flight.
        await().atMost(Duration.ofSeconds(10)).until(() -> cacheOf(id).contains("cache;desc=hit"));
        return id;
    }

    private static String cacheOf(long bookId) {
        return http.get(frontend + "/api/books/" + bookId).header("Server-Timing");
    }

    @Test
    void anInvalidationIsAppliedBeforeItIsAcknowledged() throws Exception {
        long id = cachedUnderThisSession("Invalidated by hand");

        String ack = socket.say(
                "{\"type\":\"invalidate\",\"seq\":41,\"bookId\":" + id + ",\"version\":1000,\"searchAffected\":false}");

        assertThat(Http.JSON.readTree(ack).path("seq").asLong()).isEqualTo(41);
        assertThat(Http.JSON.readTree(ack).path("type").asString()).isEqualTo("ack");
        // Version 1000 was announced: the catalog's older copy is no longer kept.
        assertThat(cacheOf(id)).contains("cache;desc=miss");
        assertThat(cacheOf(id)).contains("cache;desc=miss");
    }

    @Test
    void aFilesRegistrationIsAcknowledgedAndLeavesTheBookCached() throws Exception {
        long id = cachedUnderThisSession("A file changed");

        String ack = socket.say("{\"type\":\"invalidate\",\"seq\":42,\"bookId\":" + id
                + ",\"version\":1000,\"searchAffected\":false,\"fileName\":\"ch1.pdf\",\"fileRevision\":7}");

        assertThat(Http.JSON.readTree(ack).path("seq").asLong()).isEqualTo(42);
        assertThat(cacheOf(id))
                .as("a file's change is not a change of the book's row: its version is not taken")
                .contains("cache;desc=hit");
    }

    @Test
    void whileAConnectedCatalogGrantsNoLeaseTheCacheIsNotUsed() throws Exception {
        long id = Books.register(http, cluster, "Leased", 5);
        cacheOf(id);
        assertThat(cacheOf(id)).contains("cache;desc=hit");

        socket = new CatalogSocket(catalogToken());
        assertThat(socket.received.poll(1, TimeUnit.SECONDS)).isNull();
        for (int i = 0; i < 3; i++) assertThat(cacheOf(id)).contains("cache;desc=miss");

        socket.granting = true;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        String seen;
        do {
            seen = cacheOf(id);
        } while (!seen.contains("cache;desc=hit") && System.nanoTime() < deadline);
        assertThat(seen).as("leased again").contains("cache;desc=hit");
    }

    @Test
    void onlyAServiceTokenOpensASession() {
        for (String bearer : new String[] {null, "wrong", cluster.tokens().customer()}) {
            assertThatThrownBy(() -> new CatalogSocket(bearer))
                    .isInstanceOf(CompletionException.class)
                    .cause()
                    .isInstanceOf(WebSocketHandshakeException.class)
                    .satisfies(refused -> assertThat(((WebSocketHandshakeException) refused)
                                    .getResponse()
                                    .statusCode())
                            .isIn(401, 403));
        }
    }

    @Test
    void anythingButAnInvalidationOrALeaseClosesTheSessionAndChangesNothing() throws Exception {
        long id = Books.register(http, cluster, "Not poisoned", 5);
        for (String bad : new String[] {
            "not json",
            "[]",
            "{\"type\":\"invalidate\",\"seq\":1,\"bookId\":" + id + "}",
            "{\"type\":\"invalidate\",\"seq\":1,\"bookId\":-1,\"version\":9}",
            "{\"type\":\"invalidate\",\"seq\":1,\"bookId\":" + id + ",\"version\":0}",
            "{\"type\":\"invalidate\",\"seq\":1,\"bookId\":" + id + ",\"version\":\"9\"}",
            "{\"type\":\"invalidate\",\"seq\":1,\"bookId\":" + id + ",\"version\":9,\"searchAffected\":\"yes\"}",
            "{\"type\":\"invalidate\",\"bookId\":" + id + ",\"version\":9}",
            "{\"type\":\"drop-everything\",\"seq\":1}",
            "{\"type\":\"invalidate\",\"seq\":1,\"bookId\":" + id + ",\"version\":9,\"topic\":\"" + "x".repeat(2100)
                    + "\"}",
            "{\"type\":\"invalidate\",\"seq\":1,\"bookId\":" + id + ",\"version\":9,\"fileName\":\"a.txt\"}",
            "{\"type\":\"invalidate\",\"seq\":1,\"bookId\":" + id + ",\"version\":9,\"fileRevision\":3}",
            "{\"type\":\"invalidate\",\"seq\":1,\"bookId\":" + id
                    + ",\"version\":9,\"fileName\":\"a.txt\",\"fileRevision\":0}",
            "{\"type\":\"invalidate\",\"seq\":1,\"bookId\":" + id
                    + ",\"version\":9,\"fileName\":\"\",\"fileRevision\":3}",
            "{\"type\":\"invalidate\",\"seq\":1,\"bookId\":" + id + ",\"version\":9,\"fileName\":\"" + "n".repeat(256)
                    + "\",\"fileRevision\":3}"
        }) {
            socket = new CatalogSocket(catalogToken());
            socket.send(socket.webSocket, bad);

            assertThat(socket.closedWith()).as(bad).isIn(1007, 1009);
            assertThat(socket.received).as(bad).isEmpty();
        }
        socket = null;
        cluster.awaitCachesLeased();
        cacheOf(id);
        assertThat(cacheOf(id)).as("version 9 was never announced").contains("cache;desc=hit");
    }
}
