package dev.agora.exchange.xml;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.exchange.support.InTestExchange;
import dev.agora.exchange.support.XmlClient;
import dev.agora.local.postgres.SharedPostgres;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every phase of a connection has a deadline, kept by the event loop's {@link ConnectionClock}: the request's arrival
 * as a whole, the engine's answer, the idle connection; and a connection answered after a request read to its end is
 * closed cleanly at once. Real exchange (sequencer, PostgreSQL, Netty server), real loopback sockets.
 */
class ConnectionTimeoutsTest {

    private InTestExchange exchange;

    @AfterEach
    void stop() {
        if (exchange != null) exchange.close();
    }

    private void start(Duration readTimeout, Duration replyTimeout, Duration idleTimeout) throws Exception {
        exchange = new InTestExchange(
                "exchange_timeouts",
                new InTestExchange.Limits(
                        64, 64, 64L << 20, readTimeout, Duration.ofSeconds(3), replyTimeout, idleTimeout, null),
                null);
    }

    @Test
    @Timeout(60)
    void aRequestTricklingInWithinTheReadTimeoutIsCutOffAtTheRequestDeadline() throws Exception {
        // Read timeout 400 ms, so the deadline for the whole request is 1.2 s (three read timeouts).
        start(Duration.ofMillis(400), Duration.ofSeconds(10), Duration.ofSeconds(60));
        try (Socket socket = exchange.client().connect()) {
            OutputStream out = socket.getOutputStream();
            out.write("100\n".getBytes(StandardCharsets.US_ASCII));
            long started = System.nanoTime();
            String reply = null;
            // One byte every 100 ms: never a read timeout, but the request never completes either.
            for (int i = 0; i < 40 && reply == null; i++) {
                Thread.sleep(100);
                try {
                    out.write('<');
                } catch (java.io.IOException e) {
                    break;
                }
                if (socket.getInputStream().available() > 0) break;
            }
            reply = XmlClient.readAll(socket.getInputStream());
            assertThat(reply).isEqualTo("<results><error>request took too long to arrive</error></results>");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(1_000));
        }
        assertThat(exchange.server().timeouts("deadline")).isEqualTo(1);
        assertThat(exchange.server().timeouts("read")).isZero();
        assertServed("1");
    }

    @Test
    @Timeout(60)
    void anEngineThatDoesNotAnswerInTimeGetsTheClientAnErrorAndTheServerStaysUsable() throws Exception {
        start(Duration.ofSeconds(3), Duration.ofMillis(300), Duration.ofSeconds(60));
        try (Connection blocker = DriverManager.getConnection(
                        exchange.jdbcUrl(),
                        SharedPostgres.get().username(),
                        SharedPostgres.get().password());
                Statement statement = blocker.createStatement()) {
            // The batch's commit waits for this lock, so the engine's answer cannot be durable in time.
            blocker.setAutoCommit(false);
            statement.execute("LOCK TABLE account IN EXCLUSIVE MODE");
            long started = System.nanoTime();
            String reply = exchange.client().send("<create><account id=\"71\" balance=\"5\"/></create>");
            assertThat(reply)
                    .isEqualTo("<results><error>exchange did not answer in time; the request may not have been"
                            + " applied</error></results>");
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .isGreaterThanOrEqualTo(Duration.ofMillis(300))
                    .isLessThan(Duration.ofSeconds(5));
            blocker.rollback();
        }
        assertThat(exchange.server().timeouts("reply")).isEqualTo(1);
        assertServed("2");
    }

    @Test
    @Timeout(60)
    void aConnectionThatSendsNothingIsClosedAtTheIdleTimeout() throws Exception {
        // The read timeout is longer than the idle timeout here, so idleness is what ends the connection.
        start(Duration.ofSeconds(20), Duration.ofSeconds(10), Duration.ofMillis(300));
        try (Socket socket = exchange.client().connect()) {
            long started = System.nanoTime();
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .isGreaterThanOrEqualTo(Duration.ofMillis(250))
                    .isLessThan(Duration.ofSeconds(10));
        }
        assertThat(exchange.server().timeouts("idle")).isEqualTo(1);
        // The client sees the end of stream as the server closes; the server's count drops when the close completes.
        awaitNoOpenConnections();
        assertServed("3");
    }

    @Test
    @Timeout(60)
    void aClientThatNeverHalfClosesReadsItsWholeReplyAndAnOrderlyEndOfStream() throws Exception {
        start(Duration.ofSeconds(3), Duration.ofSeconds(10), Duration.ofSeconds(60));
        for (int i = 0; i < 50; i++) {
            try (Socket socket = exchange.client().connect()) {
                // The seed's pattern: the frame, then read to end of stream without shutting the output down; here a
                // stray newline follows the frame in the same write, which the server must read and drop.
                byte[] frame = XmlClient.frame("<create><account id=\"8" + i + "\" balance=\"1\"/></create>");
                byte[] withNewline = new byte[frame.length + 1];
                System.arraycopy(frame, 0, withNewline, 0, frame.length);
                withNewline[frame.length] = '\n';
                socket.getOutputStream().write(i % 2 == 0 ? frame : withNewline);
                InputStream in = socket.getInputStream();
                assertThat(XmlClient.readAll(in)).isEqualTo("<results><created id=\"8" + i + "\"/></results>");
            }
        }
        awaitNoOpenConnections();
    }

    private void awaitNoOpenConnections() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (exchange.server().openConnections() > 0 && System.nanoTime() < deadline) Thread.sleep(20);
        assertThat(exchange.server().openConnections()).isZero();
    }

    private void assertServed(String round) throws InterruptedException {
        String account = "9" + round + ProcessHandle.current().pid();
        assertThat(exchange.client().send("<create><account id=\"" + account + "\" balance=\"100\"/></create>"))
                .isEqualTo("<results><created id=\"" + account + "\"/></results>");
        awaitNoOpenConnections();
    }
}
