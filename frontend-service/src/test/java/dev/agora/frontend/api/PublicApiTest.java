package dev.agora.frontend.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.frontend.cluster.Books;
import dev.agora.frontend.cluster.BookstoreCluster;
import dev.agora.frontend.cluster.Http;
import dev.agora.frontend.cluster.Metrics;
import dev.agora.frontend.cluster.Tokens;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The public bookstore contract end to end, through the frontends to real catalog and order processes. */
class PublicApiTest {

    private static BookstoreCluster cluster;
    private static Http http;
    private static String a;
    private static String b;
    private static Map<String, String> customer;
    private static Map<String, String> admin;

    @BeforeAll
    static void start() {
        cluster = BookstoreCluster.get();
        http = new Http();
        a = cluster.frontend(0);
        b = cluster.frontend(1);
        customer = cluster.tokens().customerAuthorization();
        admin = cluster.tokens().adminAuthorization();
    }

    private static Map<String, String> customerWith(String header, String value) {
        return Map.of(header, value, "Authorization", customer.get("Authorization"));
    }

    @AfterAll
    static void closeClient() throws Exception {
        http.close();
    }

    @Test
    void searchListsIdAndTitleOfTheTopicsBooks() {
        Http.Response search = http.get(a + "/api/books?topic=distributed%20systems");

        assertThat(search.status()).isEqualTo(200);
        List<Long> ids =
                search.json().valueStream().map(n -> n.get("id").asLong()).toList();
        assertThat(ids).contains(1L, 2L, 5L).doesNotContain(3L, 4L);
        assertThat(search.json().get(0).propertyNames()).containsExactlyInAnyOrder("id", "title");
        assertThat(http.get(a + "/search/distributed%20systems").json()).isEqualTo(search.json());
        assertThat(http.get(a + "/api/books?topic=no%20such%20topic").json().isEmpty())
                .isTrue();
    }

    @Test
    void lookupShowsTheBookAndTimesItsTiers() {
        Http.Response lookup = http.get(a + "/api/books/2");

        assertThat(lookup.status()).isEqualTo(200);
        JsonNode book = lookup.json();
        assertThat(book.propertyNames()).containsExactlyInAnyOrder("id", "title", "topic", "price", "stock");
        assertThat(book.get("title").asString()).isEqualTo("RPCs for Dummies.");
        assertThat(book.get("topic").asString()).isEqualTo("distributed systems");
        assertThat(book.get("price").decimalValue()).isEqualByComparingTo("15.50");
        assertThat(lookup.header("Server-Timing"))
                .containsPattern("cache;desc=(hit|miss)")
                .contains("total;dur=");

        Http.Response again = http.get(a + "/lookup/2");
        assertThat(again.json()).isEqualTo(book);
        assertThat(again.header("Server-Timing")).contains("cache;desc=hit");

        Http.Response uncached = http.get(cluster.frontend(2) + "/api/books/2");
        assertThat(uncached.header("Server-Timing"))
                .contains("catalog;dur=")
                .contains("catalog.db;dur=")
                .contains("catalog.total;dur=")
                .contains("cache;desc=off");
    }

    @Test
    void anUnknownBookIsA404Problem() {
        Http.Response lookup = http.get(a + "/api/books/987654");

        assertThat(lookup.status()).isEqualTo(404);
        assertThat(lookup.header("Content-Type")).startsWith("application/problem+json");
        assertThat(lookup.json().get("type").asString()).isEqualTo("https://agora.dev/problems/not-found");

        Books.assumeOrders(cluster);
        Http.Response buy = http.post(a + "/api/orders", "{\"bookId\":987654,\"quantity\":1}", customer);
        assertThat(buy.status()).isEqualTo(404);
        assertThat(buy.header("Content-Type")).startsWith("application/problem+json");
    }

    @Test
    void aBuyCreatesAnOrderThatCanBeReadBackAndIsIdempotentByKey() {
        Books.assumeOrders(cluster);
        long stockBefore = cluster.stockAndVersion(4)[0];
        String key = UUID.randomUUID().toString();

        Http.Response buy =
                http.post(a + "/api/orders", "{\"bookId\":4,\"quantity\":2}", customerWith("Idempotency-Key", key));

        assertThat(buy.status()).as(buy.body()).isEqualTo(201);
        JsonNode order = buy.json();
        assertThat(order.get("bookId").asLong()).isEqualTo(4);
        assertThat(order.get("quantity").asInt()).isEqualTo(2);
        assertThat(order.get("status").asString()).isEqualTo("CONFIRMED");
        assertThat(order.get("total").decimalValue()).isEqualByComparingTo(new BigDecimal("25.98"));
        assertThat(buy.header("Location"))
                .isEqualTo("/api/orders/" + order.get("orderId").asLong());
        // Each tier's own entries come back under its name: the buy's time at the order service, in its
        // database, at the catalog and in the catalog's database.
        assertThat(buy.header("Server-Timing"))
                .containsPattern("(^|, )order;dur=\\d+\\.\\d{3}")
                .containsPattern("(^|, )order\\.total;dur=")
                .containsPattern("(^|, )order\\.db;dur=")
                .containsPattern("(^|, )order\\.catalog;dur=")
                .containsPattern("(^|, )order\\.catalog\\.db;dur=")
                .containsPattern("(^|, )order\\.catalog\\.total;dur=");

        Http.Response repeat =
                http.post(b + "/api/orders", "{\"bookId\":4,\"quantity\":2}", customerWith("Idempotency-Key", key));
        assertThat(repeat.json().get("orderId")).isEqualTo(order.get("orderId"));
        assertThat(cluster.stockAndVersion(4)[0]).isEqualTo(stockBefore - 2);

        Http.Response read = http.get(b + "/api/orders/" + order.get("orderId").asLong(), customer);
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json().get("status").asString()).isEqualTo("CONFIRMED");

        Http.Response page = http.get(a + "/api/orders?page=0&size=5", customer);
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.json().get("content").isArray()).isTrue();
    }

    @Test
    void theFrontendMakesAnIdempotencyKeyWhenTheClientSendsNone() {
        Books.assumeOrders(cluster);
        Http.Response buy = http.post(a + "/buy/5?quantity=1", null);

        assertThat(buy.status()).as(buy.body()).isEqualTo(201);
        assertThat(buy.header("Idempotency-Key")).hasSizeGreaterThan(10);
        assertThat(buy.json().get("quantity").asInt()).isEqualTo(1);
    }

    @Test
    void buyingMoreThanTheStockIsA409Problem() {
        Books.assumeOrders(cluster);
        long id = registerBook("Scarce", "frontend tests", "9.99", 1);

        Http.Response buy = http.post(a + "/api/orders", "{\"bookId\":" + id + ",\"quantity\":2}", customer);

        assertThat(buy.status()).as(buy.body()).isEqualTo(409);
        assertThat(buy.header("Content-Type")).startsWith("application/problem+json");
        assertThat(buy.json().get("type").asString()).isEqualTo("https://agora.dev/problems/out-of-stock");
        assertThat(buy.header("Idempotency-Key"))
                .as("the key made by the frontend")
                .isNotBlank();
        assertThat(cluster.stockAndVersion(id)[0]).isEqualTo(1);
    }

    @Test
    void badInputIsA400ProblemAndReachesNoOtherTier() {
        long[] before = quietRequestCounts();
        List<Http.Response> answers = List.of(
                http.get(a + "/api/books/0"),
                http.get(a + "/api/books/-3"),
                http.get(a + "/api/books/abc"),
                http.get(a + "/api/books/99999999999999999999999"),
                http.get(a + "/lookup/0"),
                http.get(a + "/api/books"),
                http.get(a + "/api/books?topic="),
                http.get(a + "/api/books?topic=" + "x".repeat(101)),
                http.post(a + "/api/orders", "{\"bookId\":1,\"quantity\":0}", customer),
                http.post(a + "/api/orders", "{\"bookId\":1,\"quantity\":-1}", customer),
                http.post(a + "/api/orders", "{\"bookId\":1,\"quantity\":1001}", customer),
                http.post(a + "/api/orders", "{\"bookId\":1,\"quantity\":1.5}", customer),
                http.post(a + "/api/orders", "{\"bookId\":1,\"quantity\":99999999999}", customer),
                http.post(a + "/api/orders", "{\"bookId\":0,\"quantity\":1}", customer),
                http.post(a + "/api/orders", "{\"quantity\":1}", customer),
                http.post(a + "/api/orders", "{\"bookId\":1,", customer),
                http.post(a + "/api/orders", "not json", customer),
                http.post(
                        a + "/api/orders",
                        "{\"bookId\":1,\"quantity\":1}",
                        customerWith("Idempotency-Key", "k".repeat(101))),
                http.post(a + "/buy/1?quantity=0", null),
                http.post(a + "/buy/-1", null),
                http.get(a + "/api/orders/0", customer),
                http.get(a + "/api/orders?size=0", customer),
                http.get(a + "/api/orders?page=-1", customer));

        for (Http.Response answer : answers) {
            assertThat(answer.status()).as(answer.body()).isEqualTo(400);
            assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
            assertThat(answer.json().get("type").asString()).startsWith("https://agora.dev/problems/");
            assertThat(answer.body()).doesNotContain("Exception", "at dev.", "at org.");
        }
        assertThat(quietRequestCounts()).as("catalog and order requests").isEqualTo(before);
    }

    @Test
    void invalidationsNeedAServiceTokenAndAnUnknownBookIsHarmless() {
        String url = a + "/internal/cache/invalidations";
        String body = "{\"bookId\":987654,\"version\":3,\"topic\":\"none\",\"searchAffected\":false}";
        Map<String, String> service = Tokens.bearer(cluster.tokens().catalogService());

        assertThat(http.post(url, body).status()).isEqualTo(401);
        assertThat(http.post(url, body, Map.of("Authorization", "Bearer wrong")).status())
                .isEqualTo(401);
        assertThat(http.post(url, body, customer).status()).isEqualTo(403);
        assertThat(http.post(url, body, service).status()).isEqualTo(204);
        assertThat(http.post(url, "{\"bookId\":-1,\"version\":3}", service).status())
                .isEqualTo(400);
        assertThat(http.get(a + "/api/books/1").status()).isEqualTo(200);
    }

    @Test
    void malformedInvalidationsAreProblemsThatChangeNothing() {
        String url = a + "/internal/cache/invalidations";
        Map<String, String> token = Tokens.bearer(cluster.tokens().catalogService());
        http.get(a + "/api/books/4");
        String cachedAt = http.get(a + "/api/books/4").header("Server-Timing");
        assertThat(cachedAt).contains("cache;desc=hit");

        for (String body : List.of("{\"bookId\":4", "null", "[]", "{\"bookId\":4,\"version\":\"x\"}", "")) {
            Http.Response answer = http.post(url, body, token);
            assertThat(answer.status()).as(body).isEqualTo(400);
            assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
        }
        Http.Response huge =
                http.post(url, "{\"bookId\":4,\"version\":99,\"topic\":\"" + "x".repeat(5000) + "\"}", token);
        assertThat(huge.status()).isEqualTo(400);
        Http.Response wrongMethod = http.put(url, "{\"bookId\":4,\"version\":99}", token);
        assertThat(wrongMethod.status()).isEqualTo(405);
        assertThat(wrongMethod.header("Allow")).isEqualTo("POST");

        assertThat(http.get(a + "/api/books/4").header("Server-Timing"))
                .as("the cached book is still there")
                .contains("cache;desc=hit");
    }

    @Test
    void adminCallsPassThroughWithTheCallersTokenAndEveryFrontendSeesTheChange() {
        http.get(b + "/api/books/3"); // B caches the old price
        Http.Response noToken = http.put(a + "/api/admin/books/3/price", "{\"price\":31.25}", Map.of());
        assertThat(noToken.status()).isEqualTo(401);

        Http.Response customerTried = http.put(a + "/api/admin/books/3/price", "{\"price\":1.00}", customer);
        assertThat(customerTried.status()).isEqualTo(403);

        Http.Response changed = http.put(a + "/api/admin/books/3/price", "{\"price\":31.25}", admin);

        assertThat(changed.status()).as(changed.body()).isEqualTo(200);
        assertThat(http.get(b + "/api/books/3").json().get("price").decimalValue())
                .isEqualByComparingTo("31.25");
    }

    @Test
    void aCachedAnswerIsSentAsFirstRenderedOnlyUntilItsBookOrTopicChanges() {
        String topic = "rendered " + UUID.randomUUID();
        long first = registerBook("Rendered once", topic, "9.99", 5);
        cluster.awaitCachesLeased();
        assertThat(hitAfterMiss(b + "/api/books/" + first).get("price").decimalValue())
                .isEqualByComparingTo("9.99");
        assertThat(hitAfterMiss(b + "/api/books?topic=" + topic.replace(" ", "%20")))
                .hasSize(1);

        Http.Response repriced = http.put(a + "/api/admin/books/" + first + "/price", "{\"price\":12.50}", admin);
        long second = registerBook("Rendered twice", topic, "1.00", 5);

        assertThat(repriced.status()).as(repriced.body()).isEqualTo(200);
        assertThat(hitAfterMiss(b + "/api/books/" + first).get("price").decimalValue())
                .as("a hit after the change, not the bytes of the hit before it")
                .isEqualByComparingTo("12.50");
        assertThat(hitAfterMiss(b + "/api/books?topic=" + topic.replace(" ", "%20")))
                .extracting(hit -> hit.get("id").asLong())
                .containsExactlyInAnyOrder(first, second);
    }

    /** Reads {@code url} until an answer comes from the cache, and returns that answer. */
    private static JsonNode hitAfterMiss(String url) {
        for (int read = 0; read < 50; read++) {
            Http.Response answer = http.get(url);
            assertThat(answer.status()).as(answer.body()).isEqualTo(200);
            if (answer.header("Server-Timing").contains("cache;desc=hit")) return answer.json();
        }
        throw new AssertionError("no answer from the cache for " + url);
    }

    @Test
    void cacheAndFailoverMetricsAreExposed() {
        http.get(a + "/api/books/1");
        http.get(a + "/api/books/1");

        List<String> metrics =
                List.of(http.get(a + "/actuator/prometheus").body().split("\n"));

        assertThat(metrics)
                .anyMatch(line -> line.startsWith("cache_gets_total{")
                        && line.contains("cache=\"books.lookup\"")
                        && line.contains("result=\"hit\""))
                .anyMatch(line -> line.startsWith("cache_evictions_total{") && line.contains("books.search"))
                .anyMatch(line -> line.startsWith("agora_cache_invalidations_total"))
                .anyMatch(line -> line.startsWith("agora_cache_stale_puts_refused_total{"))
                .anyMatch(line -> line.startsWith("agora_client_instances_admitted{")
                        && line.contains("service=\"catalog-service\""));
    }

    @Test
    void theOpenApiDocumentDescribesTheBookRoutesWithUniqueOperationIds() {
        JsonNode document = http.get(a + "/v3/api-docs").json();
        JsonNode paths = document.get("paths");

        assertRoute(paths, "/api/books", "searchBooks", "topic", "query");
        assertRoute(paths, "/search/{topic}", "classicSearch", "topic", "path");
        assertRoute(paths, "/api/books/{id}", "lookup", "id", "path");
        assertRoute(paths, "/lookup/{id}", "classicLookup", "id", "path");
        for (String search : List.of("/api/books", "/search/{topic}")) {
            JsonNode operation = paths.get(search).get("get");
            JsonNode topic = operation.get("parameters").get(0).get("schema");
            assertThat(topic.get("type").asString()).isEqualTo("string");
            assertThat(topic.get("minLength").asInt()).isEqualTo(1);
            assertThat(topic.get("maxLength").asInt()).isEqualTo(100);
            JsonNode answer = answerSchema(operation);
            assertThat(answer.get("type").asString()).isEqualTo("array");
            assertThat(answer.get("items").get("$ref").asString()).isEqualTo("#/components/schemas/BookSummary");
        }
        for (String lookup : List.of("/api/books/{id}", "/lookup/{id}")) {
            JsonNode operation = paths.get(lookup).get("get");
            JsonNode id = operation.get("parameters").get(0).get("schema");
            assertThat(id.get("type").asString()).isEqualTo("integer");
            assertThat(id.get("format").asString()).isEqualTo("int64");
            assertThat(id.get("minimum").asInt()).isEqualTo(1);
            assertThat(answerSchema(operation).get("$ref").asString()).isEqualTo("#/components/schemas/BookView");
        }
        JsonNode schemas = document.get("components").get("schemas");
        assertThat(schemas.get("BookSummary").get("properties").propertyNames())
                .containsExactlyInAnyOrder("id", "title");
        assertThat(schemas.get("BookView").get("properties").propertyNames())
                .containsExactlyInAnyOrder("id", "title", "topic", "price", "stock");

        List<String> operationIds = paths.valueStream()
                .flatMap(JsonNode::valueStream)
                .map(operation -> operation.path("operationId").asString(""))
                .toList();
        assertThat(operationIds).doesNotHaveDuplicates();
    }

    private static void assertRoute(JsonNode paths, String path, String operationId, String parameter, String in) {
        JsonNode operation = paths.get(path).get("get");
        assertThat(operation.get("operationId").asString()).as(path).isEqualTo(operationId);
        JsonNode parameters = operation.get("parameters");
        assertThat(parameters.size()).as(path).isEqualTo(1);
        assertThat(parameters.get(0).get("name").asString()).isEqualTo(parameter);
        assertThat(parameters.get(0).get("in").asString()).isEqualTo(in);
        assertThat(parameters.get(0).get("required").asBoolean()).isTrue();
    }

    private static JsonNode answerSchema(JsonNode operation) {
        return operation
                .get("responses")
                .get("200")
                .get("content")
                .get("application/json")
                .get("schema");
    }

    @Test
    void anExchangeThatIsDownIsAQuick503Problem() {
        Http.Response answer = http.get(
                a + "/api/exchange/symbols", Tokens.bearer(cluster.tokens().trader()));

        assertThat(answer.status()).isEqualTo(503);
        assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
        assertThat(answer.json().get("type").asString()).isEqualTo("https://agora.dev/problems/service-unavailable");
    }

    static long registerBook(String title, String topic, String price, long stock) {
        Http.Response created = http.post(
                cluster.frontend(0) + "/api/admin/books",
                "{\"title\":\"" + title + "\",\"topic\":\"" + topic + "\",\"price\":" + price + ",\"stock\":" + stock
                        + "}",
                admin);
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return created.json().get("id").asLong();
    }

    /**
     * Catalog and order request counts once they stopped moving: on a busy machine, calls of earlier tests
     * that a frontend gave up on may still be finishing on a replica.
     */
    private static long[] quietRequestCounts() {
        long[] last = {catalogRequests(), orderRequests()};
        for (int i = 0; i < 40; i++) {
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            long[] now = {catalogRequests(), orderRequests()};
            if (java.util.Arrays.equals(now, last)) return now;
            last = now;
        }
        return last;
    }

    private static long catalogRequests() {
        return cluster.catalogs.stream()
                .mapToLong(c -> Metrics.businessRequests(http, c))
                .sum();
    }

    private static long orderRequests() {
        return cluster.orders.stream()
                .mapToLong(o -> Metrics.businessRequests(http, o))
                .sum();
    }
}
