package dev.agora.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/** Bookstore calls of the tests, straight from the contract (DESIGN.md, docs/internal-api.md). */
final class Bookstore {

    private final Cluster cluster;
    private final Http http;

    Bookstore(Cluster cluster, Http http) {
        this.cluster = cluster;
        this.http = http;
    }

    String frontend(int index) {
        return cluster.urls("frontend").get(index - 1);
    }

    String catalog(int index) {
        return cluster.urls("catalog").get(index - 1);
    }

    String order(int index) {
        return cluster.urls("order").get(index - 1);
    }

    /** Registers a new title on a catalog replica (admin call) and returns its id. */
    long registerBook(String title, String topic, String price, long stock) throws IOException, InterruptedException {
        Http.Reply reply = http.post(
                catalog(1) + "/admin/books",
                Map.of("title", title, "topic", topic, "price", new BigDecimal(price), "stock", stock),
                "X-Admin-Token",
                Http.ADMIN_TOKEN);
        assertThat(reply.status()).as("register %s: %s", title, reply).isEqualTo(201);
        return reply.json().path("id").asLong();
    }

    Http.Reply buy(String frontendUrl, long bookId, int quantity, String idempotencyKey)
            throws IOException, InterruptedException {
        return http.post(frontendUrl + "/api/orders", Http.buy(bookId, quantity), "Idempotency-Key", idempotencyKey);
    }

    Http.Reply buy(String frontendUrl, long bookId) throws IOException, InterruptedException {
        return buy(frontendUrl, bookId, 1, UUID.randomUUID().toString());
    }

    Http.Reply lookup(String frontendUrl, long bookId) throws IOException, InterruptedException {
        return http.get(frontendUrl + "/api/books/" + bookId);
    }

    /** The catalog's own view of a book (bypassing every frontend cache). */
    JsonNode catalogBook(long bookId) throws IOException, InterruptedException {
        Http.Reply reply = http.get(catalog(1) + "/books/" + bookId);
        assertThat(reply.status()).as("catalog lookup: %s", reply).isEqualTo(200);
        return reply.json();
    }

    /** Every order of the order log, read page by page from an order replica: orderId to order. */
    Map<Long, JsonNode> allOrders(String orderUrl) throws IOException, InterruptedException {
        Map<Long, JsonNode> orders = new HashMap<>();
        int size = 100;
        for (int page = 0; page < 10_000; page++) {
            Http.Reply reply = http.get(orderUrl + "/orders?page=" + page + "&size=" + size);
            assertThat(reply.status()).as("order log page %d: %s", page, reply).isEqualTo(200);
            List<JsonNode> content = reply.json().path("content").valueStream().toList();
            for (JsonNode order : content) {
                JsonNode previous = orders.put(order.path("orderId").asLong(), order);
                assertThat(previous).as("order listed twice: %s", order).isNull();
            }
            if (content.size() < size) break;
        }
        return orders;
    }

    /**
     * Requests served by an instance's application endpoints (not actuator) since it started, from its Prometheus
     * scrape.
     */
    long applicationRequestsServed(String instanceUrl) throws IOException, InterruptedException {
        Http.Reply reply = http.get(instanceUrl + "/actuator/prometheus", "Accept", "text/plain");
        assertThat(reply.status()).as("scrape %s: %s", instanceUrl, reply).isEqualTo(200);
        return reply.body()
                .lines()
                .filter(line -> line.startsWith("http_server_requests_seconds_count{"))
                .filter(line -> !line.contains("uri=\"/actuator"))
                .mapToLong(line -> (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }
}
