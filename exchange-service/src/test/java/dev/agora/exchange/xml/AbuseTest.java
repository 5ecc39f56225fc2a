package dev.agora.exchange.xml;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.exchange.support.InTestExchange;
import dev.agora.exchange.support.XmlClient;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Clients that try to exhaust the XML server, against a real exchange (sequencer, PostgreSQL, Netty server) over real
 * loopback sockets. Each attack is bounded in connections and time, and each is followed (and, where it lasts,
 * accompanied) by a normal client whose request must be answered exactly. Attackers come from other loopback
 * addresses (127.0.0.2, ...), the normal client from 127.0.0.1, as on a network where they would be different hosts.
 */
class AbuseTest {

    /** The counts; scaled down only when the process may not open that many sockets (see scaled()). */
    private static final int STALLERS = 2_000;

    private static final int NON_READERS = 500;
    private static final int PER_ADDRESS = 256;
    private static final long REPLY_BUDGET = 16L << 20;

    private InTestExchange exchange;
    private XmlClient normal;
    private final List<Socket> attackers = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        InTestExchange.Limits limits = new InTestExchange.Limits(
                // A read timeout long enough that all stallers are connected, on a busy machine, before the first times
                // out.
                4096, PER_ADDRESS, REPLY_BUDGET, Duration.ofSeconds(15), Duration.ofSeconds(3), null);
        exchange = new InTestExchange("exchange_abuse", limits, null);
        normal = exchange.client();
        assertNormalClientServed("1");
    }

    @AfterEach
    void stop() throws IOException {
        for (Socket socket : attackers) socket.close();
        exchange.close();
    }

    @Test
    @Timeout(120)
    void twoThousandConnectionsThatSendHalfAFrameAndStall() throws Exception {
        int count = scaled(STALLERS);
        String half = "<create><account id=\"";
        long started = System.nanoTime();
        for (int i = 0; i < count; i++) {
            Socket socket = normal.connectFrom(attackerAddress(i), 0);
            attackers.add(socket);
            socket.getOutputStream().write(("100\n" + half).getBytes(StandardCharsets.US_ASCII));
        }
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(60));
        awaitAtLeast(exchange.server()::openConnections, count);

        // While every one of them holds its connection, others are served.
        assertNormalClientServed("2");

        // Each staller is answered when its read timeout runs out, and its connection ends.
        String expected = "<results><error>read timeout after " + half.length() + " of 100 bytes</error></results>";
        int timedOut = 0;
        String other = null;
        for (Socket socket : attackers) {
            String reply = readQuietly(socket);
            if (reply.equals(expected)) timedOut++;
            else other = reply;
        }
        assertThat(timedOut)
                .as("stallers told of their read timeout (another reply: %s)", other)
                .isGreaterThanOrEqualTo(count * 99 / 100);
        awaitAtMost(exchange.server()::openConnections, 0);
        assertThat(exchange.server().timeouts("read")).isGreaterThanOrEqualTo(timedOut);
        assertNormalClientServed("3");
    }

    @Test
    @Timeout(120)
    void fiveHundredConnectionsThatSendTenThousandChildRequestsAndNeverRead() throws Exception {
        int count = scaled(NON_READERS);
        // 10,000 children a request, each answered with an error: a 40 KB request asks for a 440 KB reply.
        byte[] request = XmlClient.frame("<transactions id=\"7\">" + "<a/>".repeat(10_000) + "</transactions>");
        AtomicLong mostPending = new AtomicLong();
        Thread sampler = Thread.ofPlatform().daemon().start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                mostPending.accumulateAndGet(exchange.server().pendingReplyBytes(), Math::max);
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        try {
            long heapBefore = usedHeapAfterGc();
            for (int i = 0; i < count; i++) {
                // A small receive buffer: the kernel takes little of the reply for a client that never reads.
                Socket socket = normal.connectFrom(attackerAddress(i), 4096);
                attackers.add(socket);
                socket.getOutputStream().write(request);
            }
            // During the attack a normal client is answered...
            assertNormalClientServed("4");
            // ...the replies waiting for those that never read stay within the budget (one reply's slack: the first
            // request is always admitted)...
            assertThat(mostPending.get()).isLessThanOrEqualTo(REPLY_BUDGET + (4 << 20));
            assertThat(exchange.server().refusedForReplyBudget())
                    .as("requests refused as busy while replies held the budget")
                    .isPositive();
            // ...and the write timeout frees every slot and every reply byte.
            awaitAtMost(exchange.server()::openConnections, 0);
            awaitAtMost(exchange.server()::pendingReplyBytes, 0);
            assertThat(exchange.server().timeouts("write")).isPositive();
            assertThat(usedHeapAfterGc() - heapBefore)
                    .as("heap kept after the attack")
                    .isLessThan(32L << 20);
        } finally {
            sampler.interrupt();
        }
        assertNormalClientServed("5");
    }

    @Test
    @Timeout(60)
    void aFrameThatClaimsTwoToTheFortyBytes() throws Exception {
        Socket socket = normal.connectFrom(attackerAddress(0), 0);
        attackers.add(socket);
        long started = System.nanoTime();
        // The connection stays open: the server must answer from the length line alone, at once, not at a timeout.
        socket.getOutputStream().write("1099511627776\n<create/>".getBytes(StandardCharsets.US_ASCII));
        assertThat(XmlClient.readAll(socket.getInputStream()))
                .isEqualTo("<results><error>message is larger than the maximum of 65536 bytes</error></results>");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        assertNormalClientServed("6");
    }

    @Test
    @Timeout(60)
    void oneAddressCannotTakeEverySlot() throws Exception {
        for (int i = 0; i < PER_ADDRESS; i++) {
            Socket socket = normal.connectFrom("127.0.0.9", 0);
            attackers.add(socket);
            socket.getOutputStream().write("100\n<cre".getBytes(StandardCharsets.US_ASCII));
        }
        awaitAtLeast(exchange.server()::openConnections, PER_ADDRESS);
        try (Socket oneMore = normal.connectFrom("127.0.0.9", 0)) {
            oneMore.getOutputStream().write(XmlClient.frame("<create/>"));
            assertThat(XmlClient.readAll(oneMore.getInputStream()))
                    .isEqualTo("<results><error>too many connections from this address, try again</error></results>");
        }
        assertNormalClientServed("7");
        assertThat(exchange.server().refusedConnections(true)).isEqualTo(1);
    }

    /** A request of the normal client: a new account, an order, and its query, each answered exactly. */
    private void assertNormalClientServed(String round) {
        String account = "9" + round + ProcessHandle.current().pid();
        assertThat(normal.send("<create><account id=\"" + account + "\" balance=\"100\"/></create>"))
                .isEqualTo("<results><created id=\"" + account + "\"/></results>");
        String opened = normal.send(
                "<transactions id=\"" + account + "\"><order sym=\"ABUSE\" amount=\"2\" limit=\"3\"/></transactions>");
        assertThat(opened).startsWith("<results><opened sym=\"ABUSE\" amount=\"2\" limit=\"3\" id=\"");
        String id = opened.replaceAll(".* id=\"(\\d+)\".*", "$1");
        assertThat(normal.send("<transactions id=\"" + account + "\"><query id=\"" + id + "\"/></transactions>"))
                .isEqualTo("<results><status id=\"" + id + "\"><open shares=\"2\"/></status></results>");
    }

    /** Attackers spread over ten loopback addresses other than the normal client's. */
    private static String attackerAddress(int i) {
        return "127.0.0." + (10 + i % 10);
    }

    /**
     * The count the test can afford: each connection costs two descriptors in this one process (client and server
     * side). With fewer descriptors than that (ulimit -n), the count is scaled down and the test says so.
     */
    private static int scaled(int wanted) {
        long limit = ManagementFactory.getOperatingSystemMXBean()
                        instanceof com.sun.management.UnixOperatingSystemMXBean unix
                ? unix.getMaxFileDescriptorCount()
                : Long.MAX_VALUE;
        long affordable = (limit - 1_000) / 2;
        if (affordable >= wanted) return wanted;
        System.err.println("AbuseTest: only " + limit + " file descriptors (ulimit -n): " + affordable
                + " connections instead of " + wanted);
        return (int) Math.max(100, affordable);
    }

    private static String readQuietly(Socket socket) {
        try (socket) {
            InputStream in = socket.getInputStream();
            return XmlClient.readAll(in);
        } catch (IOException e) {
            return "";
        }
    }

    private static void awaitAtLeast(LongSupplier value, long wanted) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (value.getAsLong() < wanted && System.nanoTime() < deadline) Thread.sleep(20);
        assertThat(value.getAsLong()).isGreaterThanOrEqualTo(wanted);
    }

    private static void awaitAtMost(LongSupplier value, long wanted) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (value.getAsLong() > wanted && System.nanoTime() < deadline) Thread.sleep(20);
        assertThat(value.getAsLong()).isLessThanOrEqualTo(wanted);
    }

    private static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
