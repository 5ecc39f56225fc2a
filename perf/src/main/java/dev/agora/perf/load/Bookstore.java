package dev.agora.perf.load;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The bookstore calls the experiments make: the public API on a frontend, and the catalog's and order
 * service's own APIs for direct (fewer-tier) measurements and setup.
 */
public final class Bookstore {

    /** The seven classic titles' topics, as loaded by the catalog's migration. */
    public static final List<String> TOPICS = List.of("distributed systems", "graduate school");

    public static final List<Long> BOOK_IDS = List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L);

    private final HttpDriver http;
    private final String adminToken;

    public Bookstore(HttpDriver http) {
        this(http, System.getenv().getOrDefault("AGORA_ADMIN_TOKEN", "dev-admin-token"));
    }

    public Bookstore(HttpDriver http, String adminToken) {
        this.http = http;
        this.adminToken = adminToken;
    }

    public HttpReply search(String frontend, String topic) {
        return http.get(frontend + "/api/books?topic=" + URLEncoder.encode(topic, StandardCharsets.UTF_8));
    }

    public HttpReply lookup(String frontend, long bookId) {
        return http.get(frontend + "/api/books/" + bookId);
    }

    public HttpReply buy(String frontend, long bookId, int quantity) {
        return http.postJson(frontend + "/api/orders", orderJson(bookId, quantity), Map.of());
    }

    public HttpReply buy(String frontend, long bookId, int quantity, String idempotencyKey) {
        return http.postJson(
                frontend + "/api/orders", orderJson(bookId, quantity), Map.of("Idempotency-Key", idempotencyKey));
    }

    public HttpReply catalogLookup(String catalog, long bookId) {
        return http.get(catalog + "/books/" + bookId);
    }

    public HttpReply catalogSearch(String catalog, String topic) {
        return http.get(catalog + "/books?topic=" + URLEncoder.encode(topic, StandardCharsets.UTF_8));
    }

    public HttpReply restock(String catalog, long bookId, long quantity) {
        return http.postJson(
                catalog + "/admin/books/" + bookId + "/restock",
                "{\"quantity\":" + quantity + "}",
                Map.of("X-Admin-Token", adminToken));
    }

    public HttpReply orderDirect(String order, long bookId, int quantity, String idempotencyKey) {
        return http.postJson(order + "/orders", orderJson(bookId, quantity), Map.of("Idempotency-Key", idempotencyKey));
    }

    private static String orderJson(long bookId, int quantity) {
        return "{\"bookId\":" + bookId + ",\"quantity\":" + quantity + "}";
    }
}
