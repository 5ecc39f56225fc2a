package dev.agora.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * The catalog's front door (SECURITY.md): every refused request is answered 400, 401 or 403 as problem+json and
 * changes nothing, which each test checks afterwards (the book, the titles of a topic, the reservation).
 */
class CatalogSecurityTest extends CatalogTestSupport {

    private static final String REGISTER_BODY =
            """
            {"title":"Should not exist","topic":"%s","price":1.00,"stock":1}""";

    /** Tokens that must not authenticate anyone, each claiming the right they would need. */
    private static Map<String, String> invalidTokens() {
        return Map.of(
                "expired", "Bearer " + ISSUER.expiredToken("admin-ann", "admin"),
                "forged", "Bearer " + ISSUER.forgedToken("admin-ann", "admin"),
                "other issuer", "Bearer " + ISSUER.tokenFromOtherIssuer("admin-ann", "admin"),
                "not a JWT", "Bearer not-a-jwt",
                "not a bearer token", "Basic YWRtaW46YWRtaW4=");
    }

    @Test
    void withoutAValidTokenEveryWriteAndEveryInternalCallIs401AndChangesNothing() {
        long id = newBook("sec-before", 5).path("id").asLong();
        JsonNode before = book(id);
        long orderId = nextOrderId();
        String reservation = """
                {"orderId":%d,"bookId":%d,"quantity":1}""".formatted(orderId, id);

        Map<String, String[]> callers = new TreeMap<>();
        callers.put("no token", new String[0]);
        invalidTokens().forEach((name, token) -> callers.put(name, new String[] {AUTHORIZATION, token}));
        for (Map.Entry<String, String[]> entry : callers.entrySet()) {
            String as = entry.getKey();
            String[] caller = entry.getValue();
            List<Response> refused = List.of(
                    post("/admin/books", REGISTER_BODY.formatted("sec-unauthenticated"), caller),
                    put("/admin/books/" + id + "/price", "{\"price\":0.01}", caller),
                    post("/admin/books/" + id + "/restock", "{\"quantity\":100}", caller),
                    post("/internal/reservations", reservation, caller),
                    post("/internal/reservations/batch", "[" + reservation + "]", caller),
                    get("/internal/reservations/" + orderId, caller),
                    get("/internal/reservations?orderId=" + orderId, caller));
            assertThat(refused).as(as).allSatisfy(response -> {
                assertThat(response.status()).isEqualTo(401);
                assertThat(response.isProblem()).isTrue();
                assertThat(response.problemType()).isEqualTo("https://agora.dev/problems/unauthorized");
            });
        }

        assertThat(book(id)).isEqualTo(before);
        assertThat(get("/books?topic=sec-unauthenticated").json().size()).isZero();
        assertThat(get("/internal/reservations/" + orderId, AUTHORIZATION, service())
                        .status())
                .isEqualTo(404);
    }

    @Test
    void aCallerWithoutTheRightIs403AndChangesNothing() {
        long id = newBook("sec-before", 5).path("id").asLong();
        JsonNode before = book(id);
        long orderId = nextOrderId();
        String reservation = """
                {"orderId":%d,"bookId":%d,"quantity":1}""".formatted(orderId, id);
        String customer = customer();
        String trader = "Bearer " + ISSUER.token("trader-tom", "trader");
        String noRoles = "Bearer " + ISSUER.token("nobody-nina");

        for (String caller : List.of(customer, trader, noRoles, service())) {
            assertThat(post("/admin/books", REGISTER_BODY.formatted("sec-forbidden"), AUTHORIZATION, caller)
                            .status())
                    .isEqualTo(403);
            assertThat(put("/admin/books/" + id + "/price", "{\"price\":0.01}", AUTHORIZATION, caller)
                            .status())
                    .isEqualTo(403);
            assertThat(post("/admin/books/" + id + "/restock", "{\"quantity\":100}", AUTHORIZATION, caller)
                            .status())
                    .isEqualTo(403);
        }
        for (String caller : List.of(customer, trader, noRoles, admin(), publisher())) {
            Response reserve = post("/internal/reservations", reservation, AUTHORIZATION, caller);
            assertThat(reserve.status()).isEqualTo(403);
            assertThat(reserve.isProblem()).isTrue();
            assertThat(reserve.problemType()).isEqualTo("https://agora.dev/problems/forbidden");
            Response batch = post("/internal/reservations/batch", "[" + reservation + "]", AUTHORIZATION, caller);
            assertThat(batch.status()).isEqualTo(403);
            assertThat(batch.problemType()).isEqualTo("https://agora.dev/problems/forbidden");
            assertThat(get("/internal/reservations/" + orderId, AUTHORIZATION, caller)
                            .status())
                    .isEqualTo(403);
        }

        assertThat(book(id)).isEqualTo(before);
        assertThat(get("/books?topic=sec-forbidden").json().size()).isZero();
        assertThat(get("/internal/reservations/" + orderId, AUTHORIZATION, service())
                        .status())
                .isEqualTo(404);
    }

    /**
     * Paths that a check of the raw URI would not see as {@code /admin/**}: semicolons, {@code //}, dot segments,
     * encoded slashes, dots, backslashes, percents and NULs. The firewall refuses them outright, whoever calls,
     * even a publisher who could register titles at {@code /admin/books}: 400 from Spring Security's firewall
     * (problem+json), or from Tomcat itself for an encoded slash, backslash or NUL (its own error page).
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "/admin;x/books",
                "/admin;jsessionid=1/books",
                "//admin/books",
                "/admin//books",
                "/admin/%2e%2e/admin/books",
                "/admin/../admin/books",
                "/admin/./books",
                "/books/..%2F..%2Fadmin/books",
                "/books/..%2fadmin/books",
                "/books/%2e%2e/admin/books",
                "/books/../admin/books",
                "/%2561dmin/books",
                "/admin%2Fbooks",
                "/admin%5Cbooks",
                "/books%00/../admin/books"
            })
    void anUnnormalizedOrEncodedSeparatorPathIs400ForEveryCallerAndRegistersNothing(String path) {
        String topic = "sec-path-" + Integer.toHexString(path.hashCode());

        Response anonymous = post(path, REGISTER_BODY.formatted(topic));
        Response byCustomer = post(path, REGISTER_BODY.formatted(topic), AUTHORIZATION, customer());
        Response byPublisher = post(path, REGISTER_BODY.formatted(topic), AUTHORIZATION, publisher());

        assertThat(List.of(anonymous.status(), byCustomer.status(), byPublisher.status()))
                .containsOnly(400);
        assertThat(get("/books?topic=" + topic).json().size()).isZero();
    }

    /**
     * The rules match the decoded path, so {@code /%61dmin/books} is {@code /admin/books}: refused by the
     * {@code /admin/**} rule, 401 without a token and 403 for a customer (the closing "any request authenticated"
     * would have let the customer through to the controller: 201), and routed to the admin controller for a
     * publisher.
     */
    @ParameterizedTest
    @ValueSource(strings = {"/%61dmin/books", "/%61%64%6d%69%6e/books", "/%61dmin/%62ooks"})
    void anEncodedAdminPathIsStillAnAdminPath(String path) {
        String topic = "sec-decoded-" + Integer.toHexString(path.hashCode());

        Response anonymous = post(path, REGISTER_BODY.formatted(topic));
        Response byCustomer = post(path, REGISTER_BODY.formatted(topic), AUTHORIZATION, customer());

        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(byCustomer.status()).isEqualTo(403);
        assertThat(byCustomer.problemType()).isEqualTo("https://agora.dev/problems/forbidden");
        assertThat(get("/books?topic=" + topic).json().size()).isZero();

        Response byPublisher = post(path, REGISTER_BODY.formatted(topic), AUTHORIZATION, publisher());
        assertThat(byPublisher.status()).isEqualTo(201);
        assertThat(get("/books?topic=" + topic).json().size()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/%69nternal/reservations",
                "/internal;x/reservations",
                "//internal/reservations",
                "/internal/%2e%2e/internal/reservations",
                "/books/..%2F..%2Finternal/reservations",
                "/books/../internal/reservations"
            })
    void anEncodedOrUnnormalizedInternalPathIsRefusedAndReservesNothing(String path) {
        long id = newBook("sec-internal-path", 5).path("id").asLong();
        long orderId = nextOrderId();
        String reservation = """
                {"orderId":%d,"bookId":%d,"quantity":2}""".formatted(orderId, id);

        Response anonymous = post(path, reservation);
        Response byCustomer = post(path, reservation, AUTHORIZATION, customer());

        boolean onlyEncodedLetters = path.startsWith("/%69");
        assertThat(anonymous.status()).as("no token").isEqualTo(onlyEncodedLetters ? 401 : 400);
        assertThat(byCustomer.status()).as("customer").isEqualTo(onlyEncodedLetters ? 403 : 400);
        assertThat(book(id).path("stock").asLong()).isEqualTo(5);
        assertThat(get("/internal/reservations/" + orderId, AUTHORIZATION, service())
                        .status())
                .isEqualTo(404);
    }

    @Test
    void publicReadsNeedNoTokenButABadTokenIsStillRefused() {
        assertThat(get("/books/1").status()).isEqualTo(200);
        assertThat(get("/books?topic=distributed%20systems").status()).isEqualTo(200);
        assertThat(get("/actuator/health/readiness").status()).isEqualTo(200);
        // A token that is sent is checked, also where none is needed: a caller learns its token is bad.
        assertThat(get("/books/1", AUTHORIZATION, "Bearer " + ISSUER.expiredToken("customer-cal", "customer"))
                        .status())
                .isEqualTo(401);
    }

    @Test
    void onlyTheCatalogsOwnServiceTokenReachedTheFrontends() {
        newBook("sec-pushed", 1);

        assertThat(FRONTEND.refused()).isZero();
        assertThat(OTHER_FRONTEND.refused()).isZero();
    }
}
