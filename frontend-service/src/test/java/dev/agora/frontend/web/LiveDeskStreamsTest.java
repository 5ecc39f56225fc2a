package dev.agora.frontend.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.security.testing.FormSignIn;
import dev.agora.frontend.cluster.BookstoreCluster;
import dev.agora.frontend.cluster.ExchangePair;
import dev.agora.frontend.cluster.Http;
import dev.agora.frontend.cluster.Metrics;
import dev.agora.frontend.cluster.Tokens;
import dev.agora.frontend.identity.Identities;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A trading desk's live stream (Server-Sent Events) over plain HTTP against the cluster's frontend C, which follows
 * the suite's exchange pair: an open stream sends the book and the person's orders, and keeps writing (comment lines)
 * while nothing changes; once its client drops the connection, the stream ends within a few seconds, its slot given
 * back ({@code agora.web.desk.streams}) and the exchange asked nothing more on its behalf; and once its person signs
 * out elsewhere, it ends within seconds rather than at its timeout.
 */
class LiveDeskStreamsTest {

    private static final String PASSWORD = "a-long-enough-desk-password";
    private static final String TRADER = "desk-stream-trader";
    private static final Duration ENDED_WITHIN = Duration.ofSeconds(5);
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(10);

    private static BookstoreCluster cluster;
    private static ExchangePair exchanges;
    private static MeterRegistry meters;
    private static String session;

    @BeforeAll
    static void start() throws Exception {
        cluster = BookstoreCluster.get();
        exchanges = ExchangePair.get();
        ConfigurableApplicationContext frontend = cluster.frontendContext(2);
        meters = frontend.getBean(MeterRegistry.class);
        frontend.getBean(Identities.class).ensureUser(TRADER, List.of("trader"), PASSWORD);
        exchanges.awaitServing();
        try (Http http = new Http()) {
            // An account of the trader's, so that the desk has orders and cash to show.
            Http.Response account = http.post(
                    exchanges.active().baseUrl() + "/api/exchange/accounts",
                    "{\"id\":\"7101\",\"balance\":1000,\"owner\":\"" + TRADER + "\"}",
                    Tokens.bearer(cluster.tokens().admin()));
            assertThat(account.status()).as(account.toString()).isEqualTo(201);
        }
        session = new FormSignIn()
                .signIn(cluster.frontend(2), TRADER, PASSWORD)
                .orElseThrow(() -> new AssertionError("the trader could not sign in"));
    }

    @Test
    void aStreamWhoseClientDroppedTheConnectionEndsAndAsksTheExchangeNothingMore() throws Exception {
        double openBefore = openStreams();
        try (Http http = new Http()) {
            long readsBefore = Metrics.businessRequests(http, exchanges.active());
            try (Socket socket = openStream(session)) {
                String received = readUntil(socket, text -> text.contains("event:book") && text.contains("event:mine"));
                assertThat(received).startsWith("HTTP/1.1 200").contains("text/event-stream");
                assertThat(openStreams()).isEqualTo(openBefore + 1);
                // Nothing changes on the desk now, yet the stream keeps writing: its comment lines, one a tick.
                String quiet = readUntil(socket, text -> text.split("\n:\n", -1).length > 3);
                assertThat(quiet).doesNotContain("event:");
                // The open stream's reads are what the exchange counts (so the count below could see an ended one's).
                assertThat(Metrics.businessRequests(http, exchanges.active())).isGreaterThan(readsBefore);
            }
        }
        // The client is gone (its socket closed, as a closed tab's is).
        long deadline = System.nanoTime() + ENDED_WITHIN.toNanos();
        while (openStreams() > openBefore && System.nanoTime() < deadline) Thread.sleep(50);
        assertThat(openStreams()).as("live desk streams open").isEqualTo(openBefore);

        try (Http http = new Http()) {
            long readsAfterEnd = Metrics.businessRequests(http, exchanges.active());
            // Four ticks: an ended stream's task would have read the book and the orders in each.
            Thread.sleep(4 * new WebSettings().deskPollInterval().toMillis());
            assertThat(Metrics.businessRequests(http, exchanges.active()))
                    .as("exchange reads after the stream ended")
                    .isEqualTo(readsAfterEnd);
        }
    }

    @Test
    void aStreamEndsSoonAfterItsPersonSignsOutThroughTheOtherFrontend() throws Exception {
        FormSignIn web = new FormSignIn();
        String signedIn = web.signIn(cluster.frontend(2), TRADER, PASSWORD)
                .orElseThrow(() -> new AssertionError("the trader could not sign in"));
        double openBefore = openStreams();
        try (Socket socket = openStream(signedIn)) {
            readUntil(socket, text -> text.contains("event:book") && text.contains("event:mine"));
            assertThat(openStreams()).isEqualTo(openBefore + 1);

            // Another tab signs out, served by another frontend: the session leaves the store both share.
            HttpResponse<String> signedOut =
                    web.postWithCsrf(cluster.frontend(0) + "/", cluster.frontend(0) + "/logout", signedIn);
            assertThat(signedOut.statusCode()).isEqualTo(302);
            long signedOutAt = System.nanoTime();

            // The stream's response ends (its last, empty chunk, or the connection closed) well before its timeout.
            readToTheEnd(socket);
            assertThat(Duration.ofNanos(System.nanoTime() - signedOutAt))
                    .isLessThan(new WebSettings().deskSessionCheckInterval().plus(ENDED_WITHIN));
        }
        long deadline = System.nanoTime() + ENDED_WITHIN.toNanos();
        while (openStreams() > openBefore && System.nanoTime() < deadline) Thread.sleep(50);
        assertThat(openStreams()).as("live desk streams open").isEqualTo(openBefore);
    }

    private static double openStreams() {
        return meters.get("agora.web.desk.streams").gauge().value();
    }

    private static Socket openStream(String session) throws IOException {
        String host = cluster.frontend(2).substring("http://".length());
        int colon = host.lastIndexOf(':');
        Socket socket = new Socket(host.substring(0, colon), Integer.parseInt(host.substring(colon + 1)));
        socket.setSoTimeout((int) READ_TIMEOUT.toMillis());
        OutputStream out = socket.getOutputStream();
        out.write(("GET /trade/events?symbol=DESKS HTTP/1.1\r\n"
                        + "Host: " + host + "\r\n"
                        + "Accept: text/event-stream\r\n"
                        + "Cookie: " + FormSignIn.COOKIE + "=" + session + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }

    /** Reads what the stream sends until its response ends, within the read timeout. */
    private static void readToTheEnd(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        StringBuilder received = new StringBuilder();
        byte[] buffer = new byte[8192];
        long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
        while (!received.toString().endsWith("\r\n0\r\n\r\n")) {
            if (System.nanoTime() > deadline) throw new SocketTimeoutException("the stream went on: " + received);
            int read = in.read(buffer);
            if (read < 0) return;
            received.append(new String(buffer, 0, read, StandardCharsets.UTF_8));
        }
    }

    /** What the stream sends until {@code enough} holds, within the read timeout for each read. */
    private static String readUntil(Socket socket, Predicate<String> enough) throws IOException {
        InputStream in = socket.getInputStream();
        StringBuilder received = new StringBuilder();
        byte[] buffer = new byte[8192];
        long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
        while (!enough.test(received.toString())) {
            if (System.nanoTime() > deadline) throw new SocketTimeoutException("the stream sent only: " + received);
            int read = in.read(buffer);
            if (read < 0) throw new IOException("the stream ended after: " + received);
            received.append(new String(buffer, 0, read, StandardCharsets.UTF_8));
        }
        return received.toString();
    }
}
