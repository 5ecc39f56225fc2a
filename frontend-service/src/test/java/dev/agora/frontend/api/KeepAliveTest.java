package dev.agora.frontend.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.frontend.cluster.BookstoreCluster;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every tier keeps serving one caller's connection past Tomcat's default of 100 requests: the callers are pooled
 * clients, and a connection closed by the server costs the next request a new one (every 100th cached lookup
 * took about 1 ms more). Spoken over a raw socket so that no client library can hide a reconnect.
 */
class KeepAliveTest {

    private static final int REQUESTS = 250;
    private static final Pattern OK = Pattern.compile("HTTP/1\\.1 200 ");

    private static BookstoreCluster cluster;

    @BeforeAll
    static void start() {
        cluster = BookstoreCluster.get();
    }

    @Test
    void aFrontendServesManyRequestsOnOneConnection() throws IOException {
        assertServesOnOneConnection(cluster.frontend(0), "/api/books/1");
    }

    @Test
    void aCatalogServesManyRequestsOnOneConnection() throws IOException {
        assertServesOnOneConnection(cluster.catalogs.getFirst().baseUrl(), "/books/1");
    }

    @Test
    void anOrderServiceServesManyRequestsOnOneConnection() throws IOException {
        assertServesOnOneConnection(cluster.orders.getFirst().baseUrl(), "/actuator/health/liveness");
    }

    /** Pipelined: Tomcat answers in order, and under a per-connection limit says so and closes after the limit. */
    private static void assertServesOnOneConnection(String baseUrl, String path) throws IOException {
        URI base = URI.create(baseUrl);
        String request = "GET " + path + " HTTP/1.1\r\nHost: " + base.getAuthority() + "\r\n\r\n";
        StringBuilder replies = new StringBuilder();
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.repeat(REQUESTS).getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[8192];
            while (OK.matcher(replies).results().count() < REQUESTS) {
                int read = in.read(buffer);
                if (read < 0) break;
                replies.append(new String(buffer, 0, read, StandardCharsets.US_ASCII));
            }
        }
        assertThat(OK.matcher(replies).results().count())
                .as("answers of %s%s on one connection", baseUrl, path)
                .isEqualTo(REQUESTS);
        assertThat(replies.toString().toLowerCase()).doesNotContain("connection: close");
    }
}
