package dev.agora.order;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One order service (in this JVM, real HTTP, real PostgreSQL) over two real catalog processes, shared by all
 * test classes of the module, all in the local profile with the tests' {@link Tokens#ISSUER} as their
 * authorization server. Buys and reads are a customer's, {@link #BUYER}, unless a test says otherwise.
 */
@ActiveProfiles("local")
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "server.address=127.0.0.1",
            "agora.orders.recovery.interval=300ms",
            "agora.orders.recovery.min-age=1s",
            // This JVM may stall on a busy build machine for longer than the production lease (SweeperFailoverIT
            // runs real processes with it).
            "agora.orders.recovery.leadership.ttl=5s",
            // A starved build machine can stall a healthy catalog for over a second; production keeps 3500ms.
            "agora.clients.catalog-service.timeout=3s",
            // Counts every session's statements and commits (BuyStatementsTest).
            "spring.jpa.properties.hibernate.session.events.auto=dev.agora.common.testing.StatementCounter"
        })
abstract class OrderTestSupport {

    static final String AUTHORIZATION = Tokens.AUTHORIZATION;
    /** The customer whose buys and reads these tests make, unless they name another caller. */
    static final String BUYER = "customer-carla";

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @Autowired
    JdbcClient orderDatabase;

    @DynamicPropertySource
    static void catalogReplicas(DynamicPropertyRegistry registry) {
        registry.add("agora.security.authorities", Tokens.ISSUER::url);
        // The replicas start while this context does; the first test waits for them (catalogReplicasReady).
        List<String> urls = CatalogReplicas.urls();
        for (int i = 0; i < urls.size(); i++) {
            String url = urls.get(i);
            registry.add("spring.cloud.discovery.client.simple.instances.catalog-service[" + i + "].uri", () -> url);
        }
    }

    /**
     * Runs after this context started and before every test: the first time, until both catalog replicas are ready
     * (the order service's load balancer probes them from its first catalog call on, which comes later).
     */
    @BeforeEach
    void catalogReplicasReady() {
        CatalogReplicas.get();
    }

    record Response(int status, String contentType, JsonNode json, String serverTiming) {
        boolean isProblem() {
            return "application/problem+json".equals(contentType);
        }

        String problemType() {
            return json.path("type").asString();
        }

        long orderId() {
            return json.path("orderId").asLong();
        }
    }

    static String newKey() {
        return UUID.randomUUID().toString();
    }

    Response buy(String idempotencyKey, long bookId, int quantity) {
        return buy(idempotencyKey, """
                {"bookId":%d,"quantity":%d}""".formatted(bookId, quantity));
    }

    Response buy(String idempotencyKey, String body) {
        return buyAs(Tokens.customer(BUYER), idempotencyKey, body);
    }

    Response buyAs(String authorization, String idempotencyKey, long bookId, int quantity) {
        return buyAs(
                authorization,
                idempotencyKey,
                """
                {"bookId":%d,"quantity":%d}""".formatted(bookId, quantity));
    }

    /** @param authorization the {@code Authorization} header, or null for none */
    Response buyAs(String authorization, String idempotencyKey, String body) {
        return postAs(authorization, "/orders", idempotencyKey, body);
    }

    /** A buy to any path, as the caller. */
    Response postAs(String authorization, String path, String idempotencyKey, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(orderService(path)))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (idempotencyKey != null) request.header("Idempotency-Key", idempotencyKey);
        if (authorization != null) request.header(AUTHORIZATION, authorization);
        return send(request);
    }

    Response getOrder(long orderId) {
        return get("/orders/" + orderId);
    }

    Response get(String path) {
        return getAs(Tokens.customer(BUYER), path);
    }

    /** @param authorization the {@code Authorization} header, or null for none */
    Response getAs(String authorization, String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(orderService(path)));
        if (authorization != null) request.header(AUTHORIZATION, authorization);
        return send(request);
    }

    /** What Prometheus scrapes from the order service. */
    String prometheusScrape() {
        return exchange(HttpRequest.newBuilder(URI.create(orderService("/actuator/prometheus")))
                        .header(AUTHORIZATION, Tokens.admin()))
                .body();
    }

    /** A meter of the order service as its actuator reports it (a counter's count, a gauge's value). */
    double meter(String name) {
        Response meter = getAs(Tokens.admin(), "/actuator/metrics/" + name);
        if (meter.status() != 200) throw new IllegalStateException("No meter " + name + ": " + meter);
        return meter.json().path("measurements").get(0).path("value").asDouble();
    }

    /** Registers a title at the catalog so the test owns its stock. */
    static long newBook(long stock) {
        Response created = send(HttpRequest.newBuilder(URI.create(catalog("/admin/books")))
                .header("Content-Type", "application/json")
                .header(AUTHORIZATION, Tokens.publisher())
                .POST(HttpRequest.BodyPublishers.ofString(
                        """
                        {"title":"Order test title","topic":"order tests","price":12.50,"stock":%d}"""
                                .formatted(stock))));
        if (created.status() != 201) throw new IllegalStateException("Could not register a book: " + created);
        return created.json().path("id").asLong();
    }

    static void restock(long bookId, long quantity) {
        Response restocked = send(HttpRequest.newBuilder(URI.create(catalog("/admin/books/" + bookId + "/restock")))
                .header("Content-Type", "application/json")
                .header(AUTHORIZATION, Tokens.publisher())
                .POST(HttpRequest.BodyPublishers.ofString("{\"quantity\":" + quantity + "}")));
        if (restocked.status() != 200) throw new IllegalStateException("Could not restock: " + restocked);
    }

    static long stock(long bookId) {
        return send(HttpRequest.newBuilder(URI.create(catalog("/books/" + bookId))))
                .json()
                .path("stock")
                .asLong();
    }

    static Response reserveDirectly(long orderId, long bookId, int quantity) {
        return send(HttpRequest.newBuilder(URI.create(catalog("/internal/reservations")))
                .header("Content-Type", "application/json")
                .header(AUTHORIZATION, Tokens.service(Tokens.ORDER_CLIENT))
                .POST(HttpRequest.BodyPublishers.ofString(
                        """
                        {"orderId":%d,"bookId":%d,"quantity":%d}"""
                                .formatted(orderId, bookId, quantity))));
    }

    /** What the first step of a buy of {@link #BUYER} commits, dated back by {@code age} (a PostgreSQL interval). */
    long pendingOrder(String key, long bookId, int quantity, String age) {
        return pendingOrder(BUYER, key, bookId, quantity, age);
    }

    long pendingOrder(String owner, String key, long bookId, int quantity, String age) {
        return orderDatabase
                .sql(
                        """
                        INSERT INTO orders (idempotency_key, owner, book_id, quantity, status, created_at, updated_at)
                        VALUES (?, ?, ?, ?, 'PENDING', now() - ?::interval, now() - ?::interval)
                        RETURNING id""")
                .params(key, owner, bookId, quantity, age, age)
                .query(Long.class)
                .single();
    }

    String statusInDatabase(long orderId) {
        return orderDatabase
                .sql("SELECT status FROM orders WHERE id = ?")
                .param(orderId)
                .query(String.class)
                .single();
    }

    long ordersFor(long bookId, String status) {
        return orderDatabase
                .sql("SELECT count(*) FROM orders WHERE book_id = ? AND status = ?")
                .params(bookId, status)
                .query(Long.class)
                .single();
    }

    long ordersWithKey(String key) {
        return orderDatabase
                .sql("SELECT count(*) FROM orders WHERE idempotency_key = ?")
                .param(key)
                .query(Long.class)
                .single();
    }

    long allOrders() {
        return orderDatabase
                .sql("SELECT count(*) FROM orders")
                .query(Long.class)
                .single();
    }

    interface Call {
        Response run(int index) throws Exception;
    }

    /** Runs the calls on real threads released together; responses in call order. */
    static List<Response> concurrently(int calls, Call call) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService threads = Executors.newFixedThreadPool(calls)) {
            List<Future<Response>> futures = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                int index = i;
                futures.add(threads.submit((Callable<Response>) () -> {
                    start.await();
                    return call.run(index);
                }));
            }
            start.countDown();
            List<Response> responses = new ArrayList<>();
            for (Future<Response> future : futures) responses.add(future.get(120, TimeUnit.SECONDS));
            return responses;
        }
    }

    private String orderService(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    static String catalog(String path) {
        return CatalogReplicas.get().getFirst().baseUrl() + path;
    }

    static Response send(HttpRequest.Builder request) {
        HttpResponse<String> response = exchange(request);
        String body = response.body();
        return new Response(
                response.statusCode(),
                response.headers().firstValue("Content-Type").orElse(""),
                json(body),
                response.headers().firstValue("Server-Timing").orElse(""));
    }

    private static JsonNode json(String body) {
        try {
            return body.isEmpty() ? JSON.missingNode() : JSON.readTree(body);
        } catch (JacksonException notJson) {
            return JSON.missingNode(); // Tomcat's own refusal of a malformed request (an encoded slash) is HTML
        }
    }

    private static HttpResponse<String> exchange(HttpRequest.Builder request) {
        try {
            return HTTP.send(request.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
