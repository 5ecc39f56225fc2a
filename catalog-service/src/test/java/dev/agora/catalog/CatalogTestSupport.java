package dev.agora.catalog;

import dev.agora.common.security.testing.TestIssuer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
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
 * One catalog (real HTTP, real PostgreSQL) shared by every test class of the module, with three frontends
 * to push invalidations to: two recording fakes (real WebSocket servers), and an address where nothing listens. Tokens come from a {@link TestIssuer} standing for the frontends' authorization server: the
 * catalog verifies callers' tokens with its JWKS and gets its own token for its pushes from its token endpoint,
 * as it does from the frontends in the local profile the launcher uses.
 */
@ActiveProfiles("local")
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "server.address=127.0.0.1",
            // A loaded build machine must not turn a slow acknowledgement into a missing one; production keeps 1s.
            "agora.invalidation.lease=3s",
            // Book files on this one node, in a folder of the test's own (FILES).
            "agora.instances.catalog-service=",
            // Counts every session's statements and commits (ReservationStatementsTest).
            "spring.jpa.properties.hibernate.session.events.auto=dev.agora.common.testing.StatementCounter"
        })
abstract class CatalogTestSupport {

    static final String AUTHORIZATION = "Authorization";
    /** The catalog's client in the local profile (application-local.yml), as the frontend registers it. */
    static final String CATALOG_CLIENT = "catalog-service";

    static final TestIssuer ISSUER =
            new TestIssuer().registerClient(CATALOG_CLIENT, "local-dev-catalog-service-secret-0123456789abcdef");

    static final FakeFrontend FRONTEND = FakeFrontend.start(ISSUER);
    static final FakeFrontend OTHER_FRONTEND = FakeFrontend.start(ISSUER);
    static final String DEAD_FRONTEND = "http://127.0.0.1:" + unusedPort();
    /** The local blob store's folder (blobs/ and staging/). */
    static final Path FILES = temporaryFolder("catalog-files-");

    private static final AtomicLong ORDER_IDS = new AtomicLong(1_000);
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    JdbcClient jdbc;

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void frontends(DynamicPropertyRegistry registry) {
        registry.add("agora.security.authorities", ISSUER::url);
        registry.add("agora.files.directory", FILES::toString);
        String prefix = "spring.cloud.discovery.client.simple.instances.frontend-service";
        registry.add(prefix + "[0].uri", FRONTEND::url);
        registry.add(prefix + "[1].uri", () -> DEAD_FRONTEND);
        registry.add(prefix + "[2].uri", OTHER_FRONTEND::url);
    }

    record Response(int status, String contentType, JsonNode json, String body) {
        boolean isProblem() {
            return "application/problem+json".equals(contentType);
        }

        String problemType() {
            return json.path("type").asString();
        }
    }

    /** {@code Authorization} values, each a fresh token (a test run may outlast one's ten minutes). */
    static String admin() {
        return "Bearer " + ISSUER.token("admin-ann", "admin");
    }

    static String publisher() {
        return "Bearer " + ISSUER.token("publisher-pat", "publisher");
    }

    static String customer() {
        return "Bearer " + ISSUER.token("customer-cal", "customer");
    }

    /** The order service's token, as it reserves stock. */
    static String service() {
        return "Bearer " + ISSUER.serviceToken("order-service");
    }

    /** Stored reservations of {@code bookId} that took stock. */
    long reservedRows(long bookId) {
        return jdbc.sql("SELECT count(*) FROM reservations WHERE book_id = ? AND outcome = 'RESERVED'")
                .param(bookId)
                .query(Long.class)
                .single();
    }

    static String outcome(Response response) {
        return response.json().path("outcome").asString();
    }

    static long nextOrderId() {
        return ORDER_IDS.incrementAndGet();
    }

    Response get(String path, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path));
        for (int i = 0; i < headers.length; i += 2) request.header(headers[i], headers[i + 1]);
        return send(request.GET());
    }

    Response post(String path, String body, String... headers) {
        return send(json(path, headers).POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    Response put(String path, String body, String... headers) {
        return send(json(path, headers).PUT(HttpRequest.BodyPublishers.ofString(body)));
    }

    Response reserve(long orderId, long bookId, int quantity) {
        return post(
                "/internal/reservations",
                """
                {"orderId":%d,"bookId":%d,"quantity":%d}""".formatted(orderId, bookId, quantity),
                AUTHORIZATION,
                service());
    }

    /** Registers a fresh title so a test owns its stock. */
    JsonNode newBook(String topic, long stock) {
        Response created = post(
                "/admin/books",
                """
                {"title":"Test title","topic":"%s","price":12.50,"stock":%d}"""
                        .formatted(topic, stock),
                AUTHORIZATION,
                publisher());
        if (created.status() != 201) throw new IllegalStateException("Could not register a book: " + created);
        return created.json();
    }

    JsonNode book(long id) {
        Response response = get("/books/" + id);
        if (response.status() != 200) throw new IllegalStateException("No book " + id + ": " + response);
        return response.json();
    }

    static BigDecimal decimal(JsonNode node) {
        return node.decimalValue();
    }

    private HttpRequest.Builder json(String path, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json");
        for (int i = 0; i < headers.length; i += 2) request.header(headers[i], headers[i + 1]);
        return request;
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private static Response send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response =
                    HTTP.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            String body = response.body();
            JsonNode json = JSON.missingNode();
            try {
                if (!body.isEmpty()) json = JSON.readTree(body);
            } catch (JacksonException notJson) {
                // Tomcat's own refusal of a malformed request (an encoded slash) is an HTML page.
            }
            return new Response(
                    response.statusCode(),
                    response.headers().firstValue("Content-Type").orElse(""),
                    json,
                    body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Path temporaryFolder(String prefix) {
        try {
            Path folder = Files.createTempDirectory(prefix);
            folder.toFile().deleteOnExit();
            return folder;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int unusedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
