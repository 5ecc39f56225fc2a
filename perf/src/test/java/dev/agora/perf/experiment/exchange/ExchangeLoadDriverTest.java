package dev.agora.perf.experiment.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Against a real TCP server on 127.0.0.1 that frames requests as EXCHANGE-PROTOCOL.md does. */
class ExchangeLoadDriverTest {

    @Test
    void everyClientKeepsOneRequestInFlightEachOnItsOwnConnectionAndReadsTheReplyToEndOfStream() throws Exception {
        try (EchoServer server = new EchoServer()) {
            List<Counting> clients = new ArrayList<>();
            for (int c = 0; c < 4; c++) clients.add(new Counting(c));

            new ExchangeLoadDriver(server.address(), Duration.ofSeconds(5)).run(clients, Duration.ofMillis(300));

            int replies = clients.stream().mapToInt(client -> client.replies).sum();
            assertThat(clients).allSatisfy(client -> {
                assertThat(client.replies).isPositive();
                assertThat(client.failures).isZero();
                assertThat(client.wrongReplies).isZero();
            });
            // One connection per request, and every request arrived whole, framed as length line plus body.
            assertThat(server.connections.get()).isEqualTo(replies);
            assertThat(server.requests)
                    .hasSize(replies)
                    .allMatch(request -> request.matches("\\d+\n<client n=\"\\d+\" i=\"\\d+\"/>"));
        }
    }

    @Test
    void refusedConnectionsAreFailuresAndTheRunStillEndsOnTime() throws Exception {
        InetSocketAddress closed;
        try (ServerSocket unused = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = new InetSocketAddress("127.0.0.1", unused.getLocalPort());
        }
        Counting client = new Counting(0);

        long started = System.nanoTime();
        new ExchangeLoadDriver(closed, Duration.ofSeconds(5)).run(List.of(client), Duration.ofMillis(200));

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        assertThat(client.failures).isPositive();
        assertThat(client.replies).isZero();
    }

    /** Sends {@code <client n=".." i=".."/>} requests and checks each reply echoes its own request. */
    private static final class Counting implements ExchangeLoadDriver.Conversation {
        private final int number;
        private final ByteBuffer request = ByteBuffer.allocate(256);
        private final ByteBuffer reply = ByteBuffer.allocate(256);
        private String sent;
        int replies;
        int failures;
        int wrongReplies;

        Counting(int number) {
            this.number = number;
        }

        @Override
        public ByteBuffer nextRequest() {
            sent = "<client n=\"" + number + "\" i=\"" + (replies + failures) + "\"/>";
            byte[] body = sent.getBytes(StandardCharsets.UTF_8);
            request.clear()
                    .put((body.length + "\n").getBytes(StandardCharsets.US_ASCII))
                    .put(body)
                    .flip();
            return request;
        }

        @Override
        public ByteBuffer replyBuffer() {
            return reply;
        }

        @Override
        public void replied(long nanos) {
            replies++;
            String received = new String(reply.array(), 0, reply.position(), StandardCharsets.UTF_8);
            if (!received.equals("<results>" + sent + "</results>") || nanos <= 0) wrongReplies++;
        }

        @Override
        public void failed(long nanos) {
            failures++;
        }
    }

    /** Reads one framed request per connection, answers with it inside {@code <results>}, closes. */
    private static final class EchoServer implements AutoCloseable {
        final AtomicInteger connections = new AtomicInteger();
        final ConcurrentLinkedQueue<String> requests = new ConcurrentLinkedQueue<>();
        private final ServerSocket socket;
        private final Thread acceptor;

        EchoServer() throws IOException {
            socket = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
            acceptor = Thread.ofPlatform().daemon().start(this::serve);
        }

        InetSocketAddress address() {
            return new InetSocketAddress("127.0.0.1", socket.getLocalPort());
        }

        private void serve() {
            while (!socket.isClosed()) {
                try (Socket connection = socket.accept()) {
                    connections.incrementAndGet();
                    InputStream in = connection.getInputStream();
                    StringBuilder length = new StringBuilder();
                    int b;
                    while ((b = in.read()) != '\n') length.append((char) b);
                    String body =
                            new String(in.readNBytes(Integer.parseInt(length.toString())), StandardCharsets.UTF_8);
                    requests.add(length + "\n" + body);
                    connection
                            .getOutputStream()
                            .write(("<results>" + body + "</results>").getBytes(StandardCharsets.UTF_8));
                } catch (IOException | RuntimeException e) {
                    // Closed at the end of the test, or a client went away: the counts tell.
                }
            }
        }

        @Override
        public void close() throws Exception {
            socket.close();
            acceptor.join(5_000);
        }
    }
}
