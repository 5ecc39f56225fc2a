package dev.agora.exchange.support;

import dev.agora.common.security.testing.TestIssuer;
import dev.agora.exchange.xml.XmlProtocolServer;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * One exchange for all in-process tests (one shared application context, a real embedded PostgreSQL, the
 * XML protocol on a free port, bound where it binds by default). Tests isolate themselves with fresh account ids
 * and symbols ({@link Ids}). Closed orders and executions are kept in memory only a little (two closed orders, none
 * per account, one execution per open order), so queries of nearly every order past its first fill are answered from PostgreSQL. The
 * service takes its token keys from a {@link TestIssuer} over real HTTP, as it
 * takes them from the frontends, and runs in the launcher's {@code local} profile.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "server.address=127.0.0.1",
            "agora.exchange.tcp-port=0",
            "agora.exchange.read-timeout=2s",
            "agora.exchange.request-deadline=5s",
            // Keep almost nothing closed in memory, so that every protocol test also proves that queries and cancels
            // answered from PostgreSQL are exactly what memory would have answered.
            "agora.exchange.closed-orders-kept=2",
            "agora.exchange.fills-kept-per-order=1",
            "agora.exchange.closed-orders-kept-per-account=0",
            // A test JVM on a busy machine may stall for longer than the production lease; the failover tests
            // (process/*IT) run with the short one.
            "agora.exchange.leadership.ttl=5s"
        })
@ActiveProfiles("local")
public abstract class ExchangeServiceTest {

    /** The authorization server of every in-process test: one for the JVM, like the shared context. */
    protected static final TestIssuer ISSUER = new TestIssuer();

    @DynamicPropertySource
    static void tokensFromTheTestIssuer(DynamicPropertyRegistry registry) {
        registry.add("agora.security.authorities", ISSUER::url);
    }

    @Autowired
    protected XmlProtocolServer xmlServer;

    @LocalServerPort
    protected int httpPort;

    protected XmlClient xml;

    @BeforeEach
    void awaitActiveExchange() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (xmlServer.port() <= 0) {
            if (System.nanoTime() > deadline) throw new IllegalStateException("exchange did not become active");
            Thread.sleep(20);
        }
        xml = XmlClient.local(xmlServer.port());
    }

    /** The JSON API of this exchange, called with {@code token} (null: none). */
    protected Rest rest(String token) {
        return new Rest("http://127.0.0.1:" + httpPort, token);
    }

    /** An admin's token. */
    protected static String adminToken() {
        return ISSUER.token("root", "admin");
    }

    /** Replaces every {@code time="..."} with {@code time="T"}, so replies can be compared as text. */
    protected static String timeless(String reply) {
        return reply.replaceAll("time=\"\\d+\"", "time=\"T\"");
    }

    protected String createAccount(String id, String balance) {
        return xml.send("<create><account id=\"" + id + "\" balance=\"" + balance + "\"/></create>");
    }

    protected String addShares(String symbol, String account, String shares) {
        return xml.send("<create><symbol sym=\"" + symbol + "\"><account id=\"" + account + "\">" + shares
                + "</account></symbol></create>");
    }

    protected String order(String account, String symbol, String amount, String limit) {
        return xml.send("<transactions id=\"" + account + "\"><order sym=\"" + symbol + "\" amount=\"" + amount
                + "\" limit=\"" + limit + "\"/></transactions>");
    }

    protected String query(String account, long orderId) {
        return xml.send("<transactions id=\"" + account + "\"><query id=\"" + orderId + "\"/></transactions>");
    }

    protected String cancel(String account, long orderId) {
        return xml.send("<transactions id=\"" + account + "\"><cancel id=\"" + orderId + "\"/></transactions>");
    }

    /** The id of the order an {@code <opened>} reply names. */
    protected static long openedId(String reply) {
        var matcher =
                java.util.regex.Pattern.compile("<opened [^>]*id=\"(\\d+)\"").matcher(reply);
        if (!matcher.find()) throw new AssertionError("not an opened reply: " + reply);
        return Long.parseLong(matcher.group(1));
    }
}
