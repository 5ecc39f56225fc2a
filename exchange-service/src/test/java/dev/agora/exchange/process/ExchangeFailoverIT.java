package dev.agora.exchange.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.exchange.support.XmlClient;
import dev.agora.local.cluster.FreePorts;
import dev.agora.local.cluster.Health;
import dev.agora.local.process.ServiceProcess;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Two real exchange processes on one PostgreSQL, active and standby, with the production lease (500 ms, renewed every
 * 100 ms): the standby answers within a second of the active one being killed (SIGKILL) or frozen (SIGSTOP), and a
 * frozen leader that is thawed after its successor took over writes nothing, stops being ready and stands by. Each
 * standby has run its JSON API's order path while standing by, and that changed nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ExchangeFailoverIT {

    private static final Duration READY = Duration.ofSeconds(120);
    private static final Duration TAKEOVER = Duration.ofSeconds(1);
    /** {@code ExchangeProperties.standbyWarmUpRounds()}. */
    private static final int WARM_UP_ROUNDS = 300;

    private final ExchangeInstances exchanges = new ExchangeInstances("exchange_failover");
    private final AtomicLong accountIds = new AtomicLong(100_000);
    /** The active instance and its standby as the previous test left them; null before the first. */
    private Pair pair;

    @BeforeAll
    void emptyDatabase() throws SQLException {
        exchanges.emptyDatabase();
    }

    @AfterAll
    void stopProcesses() {
        exchanges.close();
    }

    @Test
    @Order(1)
    void theStandbyAnswersWithinASecondOfTheActiveOneBeingKilled() throws Exception {
        Pair pair = activeAndStandby();
        String before = create(pair.activeXml());

        long killed = System.nanoTime();
        pair.active().kill();
        Duration takeover = awaitAnswer(pair.standbyXml(), killed);
        System.out.println("Takeover after SIGKILL: " + takeover.toMillis() + " ms");

        assertThat(takeover).as("time from SIGKILL until the standby answered").isLessThan(TAKEOVER);
        assertThat(pair.standby().isReady()).isTrue();
        assertThat(XmlClient.local(pair.standbyTcp())
                        .send("<create><account id=\"" + before + "\" balance=\"1\"/></create>"))
                .as("the new leader serves the state its predecessor acknowledged")
                .isEqualTo("<results><error id=\"" + before + "\">account already exists</error></results>");
    }

    @Test
    @Order(2)
    void theStandbyAnswersWithinASecondOfTheActiveOneFreezingAndTheThawedOneWritesNothing() throws Exception {
        Pair pair = activeAndStandby();
        create(pair.activeXml());

        long frozen = System.nanoTime();
        pair.active().freeze();
        // Requests sent to the frozen leader: the kernel accepts their connections and keeps their bytes, and the
        // process reads them the moment it is thawed, after its successor has taken over.
        List<String> sentToFrozen = new ArrayList<>();
        List<CompletableFuture<String>> answersOfFrozen = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String id = Long.toString(accountIds.incrementAndGet());
            sentToFrozen.add(id);
            answersOfFrozen.add(CompletableFuture.supplyAsync(() ->
                    sendOrFailure(pair.activeXml(), "<create><account id=\"" + id + "\" balance=\"5\"/></create>")));
        }
        Duration takeover = awaitAnswer(pair.standbyXml(), frozen);
        System.out.println("Takeover after SIGSTOP: " + takeover.toMillis() + " ms");
        assertThat(takeover).as("time from SIGSTOP until the standby answered").isLessThan(TAKEOVER);
        String bySuccessor = create(pair.standbyXml());

        pair.active().thaw();
        for (CompletableFuture<String> answer : answersOfFrozen) {
            // Past the client's 30 s read timeout: a request the thawed instance leaves unanswered ends as a failure
            // to read (it wrote nothing either way, as the database is checked below), not as a wait that ran out.
            assertThat(answer.get(45, TimeUnit.SECONDS))
                    .as("what the thawed former leader answered")
                    .doesNotContain("<created");
        }
        Health.await(pair.active(), "\"role\":\"STANDBY\"", READY);
        assertThat(pair.active().isAlive()).isTrue();
        assertThat(pair.active().isReady())
                .as("the thawed former leader is not ready")
                .isFalse();
        assertThat(sendOrFailure(pair.activeXml(), "<create><account id=\"1\" balance=\"1\"/></create>"))
                .as("and no longer listens")
                .startsWith("failed:");
        for (String id : sentToFrozen)
            assertThat(accountExists(id)).as("account " + id).isFalse();
        assertThat(accountExists(bySuccessor)).isTrue();
        assertThat(pair.standby().isReady()).isTrue();
    }

    private record Pair(ServiceProcess active, int activeTcp, ServiceProcess standby, int standbyTcp) {
        XmlClient activeXml() {
            return XmlClient.local(activeTcp);
        }

        XmlClient standbyXml() {
            return XmlClient.local(standbyTcp);
        }
    }

    /**
     * An active instance and a standby that has warmed up. The first test starts both; a later one takes the pair the
     * previous fault left (its standby now leads) and restarts the former leader as the new standby, one process
     * start instead of two.
     */
    private Pair activeAndStandby() throws Exception {
        if (pair == null) {
            int activeTcp = FreePorts.next();
            int standbyTcp = FreePorts.next();
            ServiceProcess active = exchanges.exchange("exchange-failover-first", activeTcp);
            active.startAndAwaitReady(READY);
            pair = new Pair(active, activeTcp, exchanges.exchange("exchange-failover-second", standbyTcp), standbyTcp);
        } else {
            pair = new Pair(pair.standby(), pair.standbyTcp(), pair.active(), pair.activeTcp());
            assertThat(pair.active().isReady())
                    .as("the previous test's successor leads")
                    .isTrue();
            pair.standby().thaw();
            pair.standby().kill();
        }
        ServiceProcess standby = pair.standby();
        standby.start();
        Health.await(standby, "\"role\":\"STANDBY\"", READY);
        assertThat(standby.isReady()).as("a standby is not ready").isFalse();
        awaitWarmUp(standby);
        return pair;
    }

    /** Creates a new account through {@code xml}; its id. */
    private String create(XmlClient xml) {
        String id = Long.toString(accountIds.incrementAndGet());
        assertThat(xml.send("<create><account id=\"" + id + "\" balance=\"10\"/></create>"))
                .isEqualTo("<results><created id=\"" + id + "\"/></results>");
        return id;
    }

    /** Tries a write on {@code xml} every few milliseconds until one is acknowledged; the time since {@code since}. */
    private Duration awaitAnswer(XmlClient xml, long since) throws InterruptedException {
        long deadline = since + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            String id = Long.toString(accountIds.incrementAndGet());
            String reply = sendOrFailure(xml, "<create><account id=\"" + id + "\" balance=\"1\"/></create>");
            if (reply.equals("<results><created id=\"" + id + "\"/></results>")) {
                return Duration.ofNanos(System.nanoTime() - since);
            }
            Thread.sleep(5);
        }
        throw new AssertionError("the standby never answered");
    }

    /**
     * Waits until {@code standby} has run its order path as often as it is set to (the exchange's
     * {@code StandbyWarmUp}), and checks that doing so changed nothing: no order, no account of its own.
     */
    private void awaitWarmUp(ServiceProcess standby) throws Exception {
        URI rounds = URI.create(standby.baseUrl() + "/actuator/metrics/agora.exchange.standby.warm.up.rounds");
        long deadline = System.nanoTime() + READY.toNanos();
        try (HttpClient http = HttpClient.newHttpClient()) {
            while (true) {
                String body = http.send(HttpRequest.newBuilder(rounds).build(), HttpResponse.BodyHandlers.ofString())
                        .body();
                if (body.contains("\"value\":" + WARM_UP_ROUNDS + ".0")) break;
                assertThat(System.nanoTime() - deadline)
                        .as("the standby's warm-up never finished: " + body)
                        .isNegative();
                Thread.sleep(100);
            }
        }
        assertThat(count("SELECT count(*) FROM exchange_order")).as("orders").isZero();
        assertThat(accountExists("0")).as("the warm-up's account").isFalse();
    }

    private long count(String query) throws SQLException {
        try (Connection db = connect();
                var statement = db.createStatement();
                ResultSet row = statement.executeQuery(query)) {
            row.next();
            return row.getLong(1);
        }
    }

    private static String sendOrFailure(XmlClient xml, String request) {
        try {
            return xml.send(request);
        } catch (UncheckedIOException e) {
            return "failed: " + e.getCause();
        }
    }

    private boolean accountExists(String id) throws SQLException {
        try (Connection db = connect();
                var statement = db.prepareStatement("SELECT 1 FROM account WHERE id = ?")) {
            statement.setString(1, id);
            try (ResultSet row = statement.executeQuery()) {
                return row.next();
            }
        }
    }

    private Connection connect() throws SQLException {
        return exchanges.connect();
    }
}
