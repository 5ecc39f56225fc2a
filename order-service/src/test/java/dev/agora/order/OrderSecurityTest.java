package dev.agora.order;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The order service's front door and its buyers' privacy (SECURITY.md): customers buy and read their own orders,
 * services buy anonymously, admins read everything. Every refusal is 400, 401 or 403 and changes nothing, which
 * each test checks afterwards (the order log, the catalog's stock, a PENDING order left unsettled).
 */
@Order(1)
class OrderSecurityTest extends OrderTestSupport {

    private static final String ALICE = "customer-alice";
    private static final String BOB = "customer-bob";
    /** The frontend buys anonymously (classic {@code /buy/{id}}) with its own service token. */
    private static final String FRONTEND = "frontend-service";

    /** Tokens that must not authenticate anyone, each claiming the customer role it would need. */
    private static Map<String, String> invalidTokens() {
        Map<String, String> tokens = new TreeMap<>();
        tokens.put("expired", "Bearer " + Tokens.ISSUER.expiredToken(BUYER, "customer"));
        tokens.put("forged", "Bearer " + Tokens.ISSUER.forgedToken(BUYER, "customer"));
        tokens.put("other issuer", "Bearer " + Tokens.ISSUER.tokenFromOtherIssuer(BUYER, "customer"));
        tokens.put("not a JWT", "Bearer not-a-jwt");
        tokens.put("not a bearer token", "Basic Y3VzdG9tZXI6Y3VzdG9tZXI=");
        return tokens;
    }

    @Test
    void withoutAValidTokenBuysAndReadsAre401AndChangeNothing() {
        long bookId = newBook(5);
        long existing = buy(newKey(), bookId, 1).orderId();
        long ordersBefore = allOrders();
        Map<String, String> callers = new TreeMap<>(invalidTokens());
        callers.put("no token", null);

        callers.forEach((as, authorization) -> {
            String key = newKey();
            List<Response> refused = List.of(
                    buyAs(authorization, key, bookId, 1),
                    getAs(authorization, "/orders/" + existing),
                    getAs(authorization, "/orders"));
            assertThat(refused).as(as).allSatisfy(response -> {
                assertThat(response.status()).isEqualTo(401);
                assertThat(response.isProblem()).isTrue();
                assertThat(response.problemType()).isEqualTo("https://agora.dev/problems/unauthorized");
            });
            assertThat(ordersWithKey(key)).as(as).isZero();
        });

        assertThat(allOrders()).isEqualTo(ordersBefore);
        assertThat(stock(bookId)).isEqualTo(4);
    }

    @Test
    void onlyCustomersAndServicesMayBuy() {
        long bookId = newBook(5);
        long ordersBefore = allOrders();

        for (String caller : List.of(
                Tokens.admin(),
                Tokens.publisher(),
                "Bearer " + Tokens.ISSUER.token("trader-tom", "trader"),
                "Bearer " + Tokens.ISSUER.token("nobody-nina"))) {
            Response refused = buyAs(caller, newKey(), bookId, 1);

            assertThat(refused.status()).isEqualTo(403);
            assertThat(refused.isProblem()).isTrue();
            assertThat(refused.problemType()).isEqualTo("https://agora.dev/problems/forbidden");
        }

        assertThat(allOrders()).isEqualTo(ordersBefore);
        assertThat(stock(bookId)).isEqualTo(5);
    }

    @Test
    void aCustomerReadsTheirOwnOrderAndAnotherCustomersIs403() {
        long bookId = newBook(5);
        Response bought = buyAs(Tokens.customer(ALICE), newKey(), bookId, 2);
        long orderId = bought.orderId();

        Response byAlice = getAs(Tokens.customer(ALICE), "/orders/" + orderId);
        Response byBob = getAs(Tokens.customer(BOB), "/orders/" + orderId);
        Response byAdmin = getAs(Tokens.admin(), "/orders/" + orderId);
        Response byService = getAs(Tokens.service(FRONTEND), "/orders/" + orderId);

        assertThat(bought.status()).isEqualTo(201);
        assertThat(bought.json().path("owner").asString()).isEqualTo(ALICE);
        assertThat(byAlice.status()).isEqualTo(200);
        assertThat(byAlice.json()).isEqualTo(bought.json());
        assertThat(byBob.status()).isEqualTo(403);
        assertThat(byBob.isProblem()).isTrue();
        assertThat(byBob.problemType()).isEqualTo("https://agora.dev/problems/forbidden");
        assertThat(byBob.json().toString()).doesNotContain(ALICE, "total", "CONFIRMED");
        assertThat(byService.status()).isEqualTo(403);
        assertThat(byAdmin.status()).isEqualTo(200);
        assertThat(byAdmin.json()).isEqualTo(bought.json());
    }

    @Test
    void anotherCustomersReadOfAPendingOrderIsRefusedAndDoesNotSettleIt() {
        long bookId = newBook(5);
        // Dated a minute ahead, so that recovery leaves it alone during the test.
        long orderId = pendingOrder(ALICE, newKey(), bookId, 1, "-1 minute");
        reserveDirectly(orderId, bookId, 1);

        Response byBob = getAs(Tokens.customer(BOB), "/orders/" + orderId);

        assertThat(byBob.status()).isEqualTo(403);
        assertThat(statusInDatabase(orderId)).isEqualTo("PENDING");
        Response byAlice = getAs(Tokens.customer(ALICE), "/orders/" + orderId);
        assertThat(byAlice.json().path("status").asString()).isEqualTo("CONFIRMED");
        assertThat(statusInDatabase(orderId)).isEqualTo("CONFIRMED");
    }

    @Test
    void aCustomersPageListsAndCountsOnlyTheirOwnOrdersAndAnAdminsListsAll() {
        long bookId = newBook(10);
        String carol = "customer-carol-" + newKey();
        String dave = "customer-dave-" + newKey();
        long carols = buyAs(Tokens.customer(carol), newKey(), bookId, 1).orderId();
        long daves1 = buyAs(Tokens.customer(dave), newKey(), bookId, 1).orderId();
        long daves2 = buyAs(Tokens.customer(dave), newKey(), bookId, 1).orderId();

        Response carolsPage = getAs(Tokens.customer(carol), "/orders?size=100");
        Response davesPage = getAs(Tokens.customer(dave), "/orders?size=100");
        Response adminsPage = getAs(Tokens.admin(), "/orders?size=5");
        Response servicesPage = getAs(Tokens.service(FRONTEND), "/orders");

        assertThat(ids(carolsPage)).containsExactly(carols);
        assertThat(carolsPage.json().path("totalElements").asLong()).isEqualTo(1);
        assertThat(ids(davesPage)).containsExactly(daves2, daves1);
        assertThat(davesPage.json().path("totalElements").asLong()).isEqualTo(2);
        assertThat(ids(adminsPage)).containsSubsequence(daves2, daves1, carols);
        assertThat(adminsPage.json().path("totalElements").asLong()).isEqualTo(allOrders());
        assertThat(ids(servicesPage)).isEmpty();
        assertThat(servicesPage.json().path("totalElements").asLong()).isZero();
    }

    @Test
    void theSameIdempotencyKeyFromTwoCustomersMakesTwoOrdersAndEachRetryFindsItsOwn() {
        long bookId = newBook(10);
        String key = newKey();

        Response alices = buyAs(Tokens.customer(ALICE), key, bookId, 1);
        Response bobs = buyAs(Tokens.customer(BOB), key, bookId, 1);
        Response alicesRetry = buyAs(Tokens.customer(ALICE), key, bookId, 1);
        Response bobsRetry = buyAs(Tokens.customer(BOB), key, bookId, 1);
        // Bob's key is his own: another buy under it is his 422, whatever Alice bought under the same key.
        Response bobsOtherBuy = buyAs(Tokens.customer(BOB), key, bookId, 3);

        assertThat(alices.status()).isEqualTo(201);
        assertThat(bobs.status()).isEqualTo(201);
        assertThat(bobs.orderId()).isNotEqualTo(alices.orderId());
        assertThat(bobs.json().path("owner").asString()).isEqualTo(BOB);
        assertThat(alicesRetry.json()).isEqualTo(alices.json());
        assertThat(bobsRetry.json()).isEqualTo(bobs.json());
        assertThat(bobsOtherBuy.status()).isEqualTo(422);
        assertThat(bobsOtherBuy.orderId()).isEqualTo(bobs.orderId());
        assertThat(ordersWithKey(key)).isEqualTo(2);
        assertThat(stock(bookId)).isEqualTo(8);
        assertThat(getAs(Tokens.customer(BOB), "/orders/" + alices.orderId()).status())
                .isEqualTo(403);
    }

    @Test
    void theSameKeySentConcurrentlyByTwoCustomersMakesExactlyOneOrderEach() throws Exception {
        long bookId = newBook(10);
        String key = newKey();

        List<Response> responses =
                concurrently(16, i -> buyAs(Tokens.customer(i % 2 == 0 ? ALICE : BOB), key, bookId, 1));

        assertThat(responses).allSatisfy(r -> assertThat(r.status()).isEqualTo(201));
        assertThat(responses.stream().map(Response::orderId).distinct()).hasSize(2);
        assertThat(ordersWithKey(key)).isEqualTo(2);
        assertThat(stock(bookId)).isEqualTo(8);
    }

    @Test
    void aServiceBuysAnonymouslyAndItsKeysAreNotACustomers() {
        long bookId = newBook(10);
        String key = newKey();

        Response anonymous = buyAs(Tokens.service(FRONTEND), key, bookId, 1);
        Response repeat = buyAs(Tokens.service(FRONTEND), key, bookId, 1);
        Response alices = buyAs(Tokens.customer(ALICE), key, bookId, 1);

        assertThat(anonymous.status()).isEqualTo(201);
        assertThat(anonymous.json().has("owner")).isFalse();
        assertThat(ownerInDatabase(anonymous.orderId())).isNull();
        assertThat(repeat.json()).isEqualTo(anonymous.json());
        assertThat(alices.orderId()).isNotEqualTo(anonymous.orderId());
        assertThat(ordersWithKey(key)).isEqualTo(2);
        assertThat(stock(bookId)).isEqualTo(8);
        // Nobody's order: only an admin reads it.
        assertThat(getAs(Tokens.customer(ALICE), "/orders/" + anonymous.orderId())
                        .status())
                .isEqualTo(403);
        assertThat(getAs(Tokens.service(FRONTEND), "/orders/" + anonymous.orderId())
                        .status())
                .isEqualTo(403);
        assertThat(getAs(Tokens.admin(), "/orders/" + anonymous.orderId()).json())
                .isEqualTo(anonymous.json());
    }

    /**
     * Paths that a check of the raw URI would not see as {@code /orders}: the firewall refuses them for every
     * caller, even a customer who may buy at {@code /orders} (400, from Spring Security's firewall or, for an
     * encoded slash, from Tomcat).
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "/orders;x",
                "/orders;jsessionid=1",
                "//orders",
                "/orders/%2e%2e/orders",
                "/orders/../orders",
                "/orders/./",
                "/x/..%2Forders",
                "/x/%2e%2e/orders",
                "/%256frders"
            })
    void anUnnormalizedOrEncodedSeparatorPathIs400ForEveryCallerAndRecordsNothing(String path) {
        long bookId = newBook(5);
        String key = newKey();
        String body = """
                {"bookId":%d,"quantity":1}""".formatted(bookId);

        Response anonymous = postAs(null, path, key, body);
        Response byCustomer = postAs(Tokens.customer(ALICE), path, key, body);
        Response read = getAs(Tokens.customer(ALICE), path);

        assertThat(List.of(anonymous.status(), byCustomer.status(), read.status()))
                .containsOnly(400);
        assertThat(ordersWithKey(key)).isZero();
        assertThat(stock(bookId)).isEqualTo(5);
    }

    /** The rules match the decoded path: {@code /%6frders} is {@code /orders}, where a trader may not buy. */
    @Test
    void anEncodedOrdersPathIsStillTheOrdersPath() {
        long bookId = newBook(5);
        String key = newKey();
        String body = """
                {"bookId":%d,"quantity":1}""".formatted(bookId);

        Response anonymous = postAs(null, "/%6frders", key, body);
        Response byTrader = postAs("Bearer " + Tokens.ISSUER.token("trader-tom", "trader"), "/%6frders", key, body);

        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(byTrader.status()).isEqualTo(403);
        assertThat(ordersWithKey(key)).isZero();
        assertThat(stock(bookId)).isEqualTo(5);
    }

    private String ownerInDatabase(long orderId) {
        return orderDatabase
                .sql("SELECT owner FROM orders WHERE id = ?")
                .param(orderId)
                .query(String.class)
                .optional()
                .orElse(null);
    }

    private static List<Long> ids(Response page) {
        return page.json()
                .path("content")
                .valueStream()
                .map(order -> order.path("orderId").asLong())
                .toList();
    }
}
