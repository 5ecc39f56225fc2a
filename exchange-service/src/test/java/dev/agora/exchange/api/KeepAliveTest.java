package dev.agora.exchange.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.exchange.support.ExchangeServiceTest;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The JSON API keeps a caller's connection past Tomcat's default of 100 requests, as the bookstore tiers do: the
 * frontends' pooled clients would otherwise pay for a new connection on every 100th call.
 */
class KeepAliveTest extends ExchangeServiceTest {

    private static final int REQUESTS = 150;
    private static final Pattern OK = Pattern.compile("HTTP/1\\.1 200 ");

    @Test
    void oneConnectionCarriesMoreThanAHundredRequests() throws IOException {
        String request = "GET /actuator/health/liveness HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
        StringBuilder replies = new StringBuilder();
        try (Socket socket = new Socket("127.0.0.1", httpPort)) {
            socket.setSoTimeout(10_000);
            // Pipelined: Tomcat answers in order, and under a per-connection limit closes after the 100th.
            socket.getOutputStream().write(request.repeat(REQUESTS).getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[8192];
            while (OK.matcher(replies).results().count() < REQUESTS) {
                int read = in.read(buffer);
                if (read < 0) break;
                replies.append(new String(buffer, 0, read, StandardCharsets.US_ASCII));
            }
        }
        assertThat(OK.matcher(replies).results().count()).isEqualTo(REQUESTS);
        assertThat(replies.toString().toLowerCase()).doesNotContain("connection: close");
    }
}
