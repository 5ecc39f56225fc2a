package dev.agora.launcher.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.launcher.credentials.AccessTokens;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/**
 * Bookstore calls of the tests, straight from the contract (DESIGN.md, docs/internal-api.md), as SECURITY.md's demo
 * users make them: buys as the customer, title registrations and order-log reads as the admin, lookups with no token.
 */
final class Bookstore {

    private final Cluster cluster;
    private final Http http;
    private final AccessTokens tokens;

    Bookstore(Cluster cluster, Http http) {
        this.cluster = cluster;
        this.http = http;
        this.tokens = new AccessTokens(cluster.credentials());
    }

    /** {@code Authorization} header values of the cluster's demo users. */
    String customer() {
        return tokens.authorization(AccessTokens.User.CUSTOMER);
    }

    String admin() {
        return tokens.authorization(AccessTokens.User.ADMIN);
    }

    String trader() {
        return tokens.authorization(AccessTokens.User.TRADER);
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
                "Authorization",
                admin());
        assertThat(reply.status()).as("register %s: %s", title, reply).isEqualTo(201);
        return reply.json().path("id").asLong();
    }

    Http.Reply buy(String frontendUrl, long bookId, int quantity, String idempotencyKey)
            throws IOException, InterruptedException {
        return http.post(
                frontendUrl + "/api/orders",
                Http.buy(bookId, quantity),
                "Idempotency-Key",
                idempotencyKey,
                "Authorization",
                customer());
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

    /** Every order of the order log, read page by page from an order replica as the admin: orderId to order. */
    Map<Long, JsonNode> allOrders(String orderUrl) throws IOException, InterruptedException {
        return orders(orderUrl + "/orders", admin());
    }

    /**
     * The orders a caller may list, read page by page from {@code listUrl} (an order replica's {@code /orders} or a
     * frontend's {@code /api/orders}) with its {@code Authorization} header value: orderId to order.
     */
    Map<Long, JsonNode> orders(String listUrl, String authorization) throws IOException, InterruptedException {
        Map<Long, JsonNode> orders = new HashMap<>();
        int size = 100;
        for (int page = 0; page < 10_000; page++) {
            Http.Reply reply = http.get(listUrl + "?page=" + page + "&size=" + size, "Authorization", authorization);
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
