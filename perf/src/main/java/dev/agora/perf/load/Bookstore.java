package dev.agora.perf.load;

import dev.agora.launcher.credentials.AccessTokens;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The bookstore calls the experiments make: the public API on a frontend, and the catalog's and order
 * service's own APIs for direct (fewer-tier) measurements and setup. Who may call what is SECURITY.md's table:
 * searches and lookups go without a token (they are public, and measured as such); buys, through a frontend or
 * straight to an order service, carry the demo customer's token; restocks the demo admin's.
 */
public final class Bookstore {

    /** The seven classic titles' topics, as loaded by the catalog's migration. */
    public static final List<String> TOPICS = List.of("distributed systems", "graduate school");

    public static final List<Long> BOOK_IDS = List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L);

    private static final String AUTHORIZATION = "Authorization";

    private final HttpDriver http;
    private final AccessTokens tokens;

    /** @param tokens the demo users' tokens of the cluster this bookstore calls */
    public Bookstore(HttpDriver http, AccessTokens tokens) {
        this.http = http;
        this.tokens = tokens;
    }

    public HttpReply search(String frontend, String topic) {
        return http.get(frontend + "/api/books?topic=" + URLEncoder.encode(topic, StandardCharsets.UTF_8));
    }

    public HttpReply lookup(String frontend, long bookId) {
        return http.get(frontend + "/api/books/" + bookId);
    }

    public HttpReply buy(String frontend, long bookId, int quantity) {
        return http.postJson(frontend + "/api/orders", orderJson(bookId, quantity), customerHeaders());
    }

    /**
     * The customer's token, or nothing where the tokens hold no customer client: an older cluster (before issue 28)
     * took buys without a token, and a comparison with it buys there as its clients did.
     */
    private Map<String, String> customerHeaders() {
        return tokens.has(AccessTokens.User.CUSTOMER) ? Map.of(AUTHORIZATION, customer()) : Map.of();
    }

    public HttpReply buy(String frontend, long bookId, int quantity, String idempotencyKey) {
        return http.postJson(
                frontend + "/api/orders",
                orderJson(bookId, quantity),
                Map.of("Idempotency-Key", idempotencyKey, AUTHORIZATION, customer()));
    }

    public HttpReply catalogLookup(String catalog, long bookId) {
        return http.get(catalog + "/books/" + bookId);
    }

    public HttpReply catalogSearch(String catalog, String topic) {
        return http.get(catalog + "/books?topic=" + URLEncoder.encode(topic, StandardCharsets.UTF_8));
    }

    /**
     * With the demo admin's token; where the tokens hold no admin client (an open-door cluster, before issue 28), with
     * the static admin token its catalog's {@code /admin/**} took then, whose default was {@value #OPEN_DOOR_ADMIN_TOKEN}.
     */
    public HttpReply restock(String catalog, long bookId, long quantity) {
        Map<String, String> headers = tokens.has(AccessTokens.User.ADMIN)
                ? Map.of(AUTHORIZATION, tokens.authorization(AccessTokens.User.ADMIN))
                : Map.of(OPEN_DOOR_ADMIN_HEADER, OPEN_DOOR_ADMIN_TOKEN);
        return http.postJson(
                catalog + "/admin/books/" + bookId + "/restock", "{\"quantity\":" + quantity + "}", headers);
    }

    /** The open door's admin header and its default token (5ebaaab's {@code TokenGuardFilter}). */
    static final String OPEN_DOOR_ADMIN_HEADER = "X-Admin-Token";

    static final String OPEN_DOOR_ADMIN_TOKEN = "dev-admin-token";

    public HttpReply orderDirect(String order, long bookId, int quantity, String idempotencyKey) {
        return http.postJson(
                order + "/orders",
                orderJson(bookId, quantity),
                Map.of("Idempotency-Key", idempotencyKey, AUTHORIZATION, customer()));
    }

    private String customer() {
        return tokens.authorization(AccessTokens.User.CUSTOMER);
    }

    private static String orderJson(long bookId, int quantity) {
        return "{\"bookId\":" + bookId + ",\"quantity\":" + quantity + "}";
    }
}
