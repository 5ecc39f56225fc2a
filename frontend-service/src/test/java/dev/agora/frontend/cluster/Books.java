package dev.agora.frontend.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.local.process.ServiceProcess;

/** Test books made through the frontend's admin passthrough, so each test owns its stock. */
public final class Books {

    private Books() {}

    /** Skips (visibly) a test that buys while the order service does not serve its contract yet. */
    public static void assumeOrders(BookstoreCluster cluster) {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                cluster.ordersServeTheContract(), "order-service does not serve the order contract yet");
    }

    /**
     * Registers a book directly on a live catalog replica, the first one (the admin passthrough has its own test):
     * a test that killed the first may register with the second.
     */
    public static long register(Http http, BookstoreCluster cluster, String title, long stock) {
        ServiceProcess catalog = cluster.catalogs.stream()
                .filter(ServiceProcess::isAlive)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("No live catalog to register a book with"));
        Http.Response created = http.post(
                catalog.baseUrl() + "/admin/books",
                "{\"title\":\"" + title + "\",\"topic\":\"frontend tests\",\"price\":10.00,\"stock\":" + stock + "}",
                cluster.tokens().adminAuthorization());
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return created.json().get("id").asLong();
    }

    /** An admin restock through a frontend's passthrough. */
    public static Http.Response restockThrough(Http http, String frontend, long bookId, long quantity) {
        return restock(http, frontend + "/api/admin/books/", bookId, quantity);
    }

    /** An admin restock sent straight to a catalog replica. */
    public static Http.Response restockOn(Http http, ServiceProcess catalog, long bookId, long quantity) {
        return restock(http, catalog.baseUrl() + "/admin/books/", bookId, quantity);
    }

    private static Http.Response restock(Http http, String prefix, long bookId, long quantity) {
        return http.post(
                prefix + bookId + "/restock",
                "{\"quantity\":" + quantity + "}",
                BookstoreCluster.get().tokens().adminAuthorization());
    }

    /** A buy by the demo customer through the public API. */
    public static Http.Response buy(Http http, String frontend, long bookId, int quantity) {
        return http.post(
                frontend + "/api/orders",
                "{\"bookId\":" + bookId + ",\"quantity\":" + quantity + "}",
                BookstoreCluster.get().tokens().customerAuthorization());
    }

    public static long stockSeenBy(Http http, String frontend, long bookId) {
        Http.Response lookup = http.get(frontend + "/api/books/" + bookId);
        assertThat(lookup.status()).as(lookup.body()).isEqualTo(200);
        return lookup.json().get("stock").asLong();
    }
}
