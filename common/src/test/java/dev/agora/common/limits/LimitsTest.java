package dev.agora.common.limits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.CommonTestApplication;
import dev.agora.common.security.testing.TestIssuer;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** Body caps of a real service over real HTTP, each refusal followed by a request that works. */
@SpringBootTest(
        classes = CommonTestApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"server.address=127.0.0.1", "spring.profiles.active=local"})
class LimitsTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final TestIssuer ISSUER = new TestIssuer();
    private static final String ITEM = "{\"name\": \"x\", \"quantity\": 2}";

    @DynamicPropertySource
    static void authorities(DynamicPropertyRegistry registry) {
        registry.add("agora.security.authorities", ISSUER::url);
    }

    @AfterAll
    static void stopIssuer() {
        ISSUER.close();
    }

    @LocalServerPort
    int port;

    @Autowired
    CommonTestApplication.Endpoints endpoints;

    @Autowired
    MeterRegistry meters;

    @Test
    void aBodyDeclaredLargerThanTheCapIsRefusedBeforeItIsSent() throws Exception {
        int before = endpoints.itemsCreated();
        double refusedBefore = meters.counter("agora.limits.body.rejected").count();
        // Claims 8 MB and sends none of it: the answer must come without the server waiting for the body.
        String answer = exchange("POST /public/items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Authorization: Bearer " + ISSUER.token("carol", "customer") + "\r\n"
                + "Content-Length: 8388608\r\n\r\n{\"name\":");

        assertThat(answer).startsWith("HTTP/1.1 413 ");
        assertThat(answer).containsIgnoringCase("Content-Type: application/problem+json");
        assertThat(answer).contains("content-too-large");
        assertThat(endpoints.itemsCreated()).isEqualTo(before);
        assertThat(meters.counter("agora.limits.body.rejected").count()).isEqualTo(refusedBefore + 1);
        assertThat(postItem("carol").statusCode()).isEqualTo(200);
    }

    @Test
    void aChunkedBodyIsRefusedOnceItPassesTheCapAndAcceptedBelowIt() throws Exception {
        int before = endpoints.itemsCreated();
        String padding = " ".repeat(20_000);
        String tooLong = exchange(chunked("{\"name\": \"x\"," + padding + "\"quantity\": 2}", "dave"));
        assertThat(tooLong).startsWith("HTTP/1.1 413 ");
        assertThat(endpoints.itemsCreated()).isEqualTo(before);

        String fits = exchange(chunked(ITEM, "dave"));
        assertThat(fits).startsWith("HTTP/1.1 200 ");
        assertThat(fits).contains("\"quantity\":2");
        assertThat(endpoints.itemsCreated()).isEqualTo(before + 1);
    }

    @Test
    void aStreamingPathTakesBodiesOfAnySize() throws Exception {
        byte[] megabyte = new byte[1 << 20];
        HttpResponse<String> response = HTTP.send(
                HttpRequest.newBuilder(uri("/public/uploads"))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(megabyte))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"bytes\":" + megabyte.length);
    }

    private HttpResponse<String> postItem(String user) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(uri("/public/items"))
                        .header("Content-Type", "application/json")
                        .header("Authorization", "Bearer " + ISSUER.token(user, "customer"))
                        .POST(HttpRequest.BodyPublishers.ofString(ITEM))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private String chunked(String body, String user) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return "POST /public/items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n"
                + "Authorization: Bearer " + ISSUER.token(user, "customer") + "\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n" + Integer.toHexString(bytes.length) + "\r\n" + body
                + "\r\n0\r\n\r\n";
    }

    /** Sends raw bytes and reads the first answer (headers and its body, up to 64 KB). */
    private String exchange(String request) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[65536];
            int total = 0;
            while (total < buffer.length) {
                int read = in.read(buffer, total, buffer.length - total);
                if (read < 0) break;
                total += read;
                String sofar = new String(buffer, 0, total, StandardCharsets.UTF_8);
                int headersEnd = sofar.indexOf("\r\n\r\n");
                if (headersEnd > 0 && sofar.substring(headersEnd + 4).endsWith("}")) break;
            }
            return new String(buffer, 0, total, StandardCharsets.UTF_8);
        }
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }
}
