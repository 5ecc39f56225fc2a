package dev.agora.frontend.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.agora.common.web.WritingFrontend;
import dev.agora.frontend.FrontendApplication;
import dev.agora.local.cluster.FreePorts;
import dev.agora.local.cluster.LocalProfile;
import dev.agora.local.postgres.PostgresServer;
import dev.agora.local.postgres.SharedPostgres;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A client that sends {@code Agora-Writing-Frontend} itself does not reach the catalog with it: a real frontend in
 * front of a stand-in catalog that records what each call carried.
 */
class ClientsNameNoWriterTest {

    private static final String BOOK =
            "{\"id\":1,\"title\":\"Stand-in\",\"topic\":\"t\",\"price\":1.00,\"stock\":3," + "\"version\":1}";

    private static final Map<String, List<String>> writerSeenByPath = new ConcurrentHashMap<>();
    private static HttpServer catalog;
    private static ConfigurableApplicationContext frontend;
    private static String base;

    @BeforeAll
    static void start() throws Exception {
        catalog = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        catalog.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        catalog.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            List<String> writer = exchange.getRequestHeaders().get(WritingFrontend.HEADER);
            if (!path.equals("/readyz")) writerSeenByPath.put(path, writer == null ? List.of() : List.copyOf(writer));
            byte[] body = (path.startsWith("/books?") || path.equals("/books") ? "[" + BOOK + "]" : BOOK)
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        catalog.start();
        String catalogUrl = "http://127.0.0.1:" + catalog.getAddress().getPort();
        PostgresServer postgres = SharedPostgres.get();
        String run = Long.toString(System.currentTimeMillis() % 1_000_000, 36);
        frontend = new SpringApplicationBuilder(FrontendApplication.class)
                .run(
                        "--spring.profiles.active=" + LocalProfile.NAME,
                        "--spring.datasource.url=" + postgres.jdbcUrl("fe_writer_" + run),
                        "--spring.datasource.username=" + postgres.username(),
                        "--spring.datasource.password=" + postgres.password(),
                        "--server.port=0",
                        "--server.address=127.0.0.1",
                        "--agora.instances.catalog-service=" + catalogUrl,
                        "--agora.instances.order-service=" + FreePorts.url(FreePorts.next()),
                        "--agora.instances.exchange-service=" + FreePorts.url(FreePorts.next()),
                        "--agora.cache.enabled=false",
                        "--agora.clients.catalog-service.timeout=10s",
                        "--spring.jmx.enabled=false");
        base = "http://127.0.0.1:"
                + ((WebServerApplicationContext) frontend).getWebServer().getPort();
    }

    @AfterAll
    static void stop() {
        if (frontend != null) frontend.close();
        if (catalog != null) catalog.stop(0);
    }

    @Test
    void aLookupSentWithAWritingFrontendReachesTheCatalogWithoutIt() throws Exception {
        try (HttpClient client = HttpClient.newHttpClient()) {
            HttpResponse<String> lookup = client.send(
                    HttpRequest.newBuilder(URI.create(base + "/api/books/1"))
                            .timeout(Duration.ofSeconds(60))
                            .header(WritingFrontend.HEADER, "http://127.0.0.1:8081")
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(lookup.statusCode()).as(lookup.body()).isEqualTo(200);
            assertThat(lookup.body()).contains("Stand-in");
        }

        assertThat(writerSeenByPath).containsKey("/books/1");
        assertThat(writerSeenByPath.get("/books/1"))
                .as("the client's Agora-Writing-Frontend passed on to the catalog")
                .isEmpty();
    }
}
