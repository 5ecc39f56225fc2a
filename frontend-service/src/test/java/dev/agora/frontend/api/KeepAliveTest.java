package dev.agora.frontend.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.process.ServiceProcess;
import dev.agora.frontend.cluster.BookstoreCluster;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every tier keeps serving one caller's connection past Tomcat's default of 100 requests: the callers are pooled
 * clients, and a connection closed by the server costs the next request a new one (every 100th cached lookup
 * took about 1 ms more). Spoken over a raw socket so that no client library can hide a reconnect.
 */
class KeepAliveTest {

    private static final int REQUESTS = 250;

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
        ServiceProcess order = cluster.orders.getFirst();
        assertServesOnOneConnection(order.baseUrl(), "/actuator/health/liveness");
    }

    private static void assertServesOnOneConnection(String baseUrl, String path) throws IOException {
        URI base = URI.create(baseUrl);
        List<Integer> statuses = new ArrayList<>();
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            byte[] request = ("GET " + path + " HTTP/1.1\r\nHost: " + base.getAuthority() + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < REQUESTS; i++) {
                out.write(request);
                out.flush();
                Response response = Response.read(in);
                statuses.add(response.status());
                assertThat(response.closesConnection())
                        .as("response %d of %s%s says Connection: close", i + 1, baseUrl, path)
                        .isFalse();
            }
        }
        assertThat(statuses).hasSize(REQUESTS).containsOnly(200);
    }

    /** The status and headers of one HTTP/1.1 response, its body read (by length or chunks) and dropped. */
    private record Response(int status, List<String> headers) {

        static Response read(InputStream in) throws IOException {
            String statusLine = line(in);
            int status = Integer.parseInt(statusLine.split(" ")[1]);
            List<String> headers = new ArrayList<>();
            for (String header = line(in); !header.isEmpty(); header = line(in))
                headers.add(header.toLowerCase(Locale.ROOT));
            Response response = new Response(status, headers);
            String length = response.header("content-length");
            if (length != null) {
                in.readNBytes(Integer.parseInt(length));
            } else if ("chunked".equals(response.header("transfer-encoding"))) {
                for (int size = Integer.parseInt(line(in), 16); size > 0; size = Integer.parseInt(line(in), 16)) {
                    in.readNBytes(size);
                    line(in);
                }
                line(in);
            }
            return response;
        }

        boolean closesConnection() {
            return "close".equals(header("connection"));
        }

        private String header(String name) {
            return headers.stream()
                    .filter(header -> header.startsWith(name + ":"))
                    .map(header -> header.substring(name.length() + 1).trim())
                    .findFirst()
                    .orElse(null);
        }

        private static String line(InputStream in) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            for (int b = in.read(); b != '\n'; b = in.read()) {
                if (b < 0) throw new IOException("connection closed by the server");
                if (b != '\r') bytes.write(b);
            }
            return bytes.toString(StandardCharsets.US_ASCII);
        }
    }
}
