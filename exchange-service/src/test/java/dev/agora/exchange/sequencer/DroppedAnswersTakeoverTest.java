package dev.agora.exchange.sequencer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.exchange.matching.Result;
import dev.agora.exchange.store.leader.LeaseSettings;
import dev.agora.exchange.support.DroppingProxy;
import dev.agora.exchange.support.FreshSchema;
import dev.agora.exchange.support.TestStores;
import dev.agora.local.postgres.PostgresServer;
import dev.agora.local.postgres.SharedPostgres;
import jakarta.persistence.EntityManagerFactory;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Two exchange instances (sequencer and store each, the production lease) on one real PostgreSQL, each reaching it
 * through a proxy of its own, under trading: the active one's answers from PostgreSQL are dropped (its commits and
 * renewals land, their answers never come), the other takes over, the link is healed, and again the other way round.
 * Afterwards every trader's cash (balances plus what open buys reserve) and shares (positions plus open sells) are
 * what it started with, in the tables.
 */
class DroppedAnswersTakeoverTest {

    private static final LeaseSettings LEASE =
            new LeaseSettings("exchange", Duration.ofMillis(500), Duration.ofMillis(100), Duration.ofMillis(100));
    private static final int TRADERS = 4;
    private static final int CUTS = 2;
    private static final BigDecimal CASH = new BigDecimal("1000000");
    private static final BigDecimal SHARES = new BigDecimal("100000");

    private final PostgresServer postgres = SharedPostgres.get();
    private final String url = postgres.jdbcUrl("exchange_dropped_answers");
    private final List<Instance> instances = new ArrayList<>();

    private record Instance(DroppingProxy proxy, EntityManagerFactory entities, Sequencer sequencer) {}

    @BeforeEach
    void start() throws Exception {
        FreshSchema.migrate(postgres, url);
        Matcher port = Pattern.compile("//[^:/]+:(\\d+)/").matcher(url);
        assertThat(port.find()).isTrue();
        for (int i = 1; i <= 2; i++) {
            DroppingProxy proxy = new DroppingProxy(Integer.parseInt(port.group(1)));
            String viaProxy = url.replaceFirst("//[^:/]+:\\d+/", "//127.0.0.1:" + proxy.port() + "/");
            DriverManagerDataSource dataSource = TestStores.dataSource(postgres, viaProxy, "exchange-" + i);
            dataSource.getConnectionProperties().setProperty("connectTimeout", "5");
            dataSource.getConnectionProperties().setProperty("loginTimeout", "5");
            EntityManagerFactory entities = TestStores.entities(dataSource);
            Sequencer sequencer = new Sequencer(
                    TestStores.store(dataSource, entities, LEASE),
                    () -> System.currentTimeMillis() / 1000,
                    10_000,
                    2048);
            sequencer.start();
            instances.add(new Instance(proxy, entities, sequencer));
        }
    }

    @AfterEach
    void stop() {
        for (Instance instance : instances) {
            instance.sequencer().close();
            instance.entities().close();
            instance.proxy().close();
        }
    }

    @Test
    void cashAndSharesAreConservedAcrossTakeoversOfALeaderWhoseAnswersAreDropped() throws Exception {
        Instance first = awaitActive(Duration.ofSeconds(30));
        for (int t = 0; t < TRADERS; t++) {
            int trader = t;
            List<Result> created = first.sequencer()
                    .submit(engine -> {
                        List<Result> results = new ArrayList<>();
                        for (String account : accounts(trader)) results.add(engine.createAccount(account, CASH));
                        for (String account : accounts(trader)) {
                            results.add(engine.addShares(symbol(trader), account, SHARES));
                        }
                        return results;
                    })
                    .get(10, TimeUnit.SECONDS);
            assertThat(created).noneMatch(result -> result instanceof Result.Rejected);
        }

        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger acknowledged = new AtomicInteger();
        List<Thread> traders = new ArrayList<>();
        for (int t = 0; t < TRADERS; t++) {
            int trader = t;
            traders.add(Thread.ofPlatform().daemon().start(() -> trade(trader, stop, acknowledged)));
        }
        try {
            for (int cut = 0; cut < CUTS; cut++) {
                Thread.sleep(1_000);
                Instance leader = awaitActive(Duration.ofSeconds(30));
                Instance other = instances.get(1 - instances.indexOf(leader));
                leader.proxy().dropReplies();
                awaitRole(other, Sequencer.Role.ACTIVE);
                awaitRole(leader, Sequencer.Role.STANDBY);
                Thread.sleep(500);
                leader.proxy().heal();
            }
            Thread.sleep(1_000);
        } finally {
            stop.set(true);
            for (Thread trader : traders) trader.join(Duration.ofSeconds(10));
        }
        assertThat(acknowledged.get()).as("orders acknowledged").isPositive();
        // Commands whose callers gave up may still be applied; let the active instance settle.
        Thread.sleep(2_000);

        try (Connection db = DriverManager.getConnection(url, postgres.username(), postgres.password())) {
            for (int t = 0; t < TRADERS; t++) {
                String in = "'" + String.join("','", accounts(t)) + "'";
                try (Statement statement = db.createStatement();
                        ResultSet totals = statement.executeQuery("SELECT "
                                + "(SELECT sum(balance) FROM account WHERE id IN (" + in + ")) + "
                                + "(SELECT coalesce(sum(open_shares * limit_price), 0) FROM exchange_order "
                                + "  WHERE amount > 0 AND account_id IN (" + in + ")), "
                                + "(SELECT sum(shares) FROM position WHERE symbol = '" + symbol(t) + "') + "
                                + "(SELECT coalesce(sum(open_shares), 0) FROM exchange_order WHERE amount < 0 AND"
                                + " symbol = '" + symbol(t) + "')")) {
                    totals.next();
                    assertThat(totals.getBigDecimal(1))
                            .as("cash of trader " + t)
                            .isEqualByComparingTo(CASH.multiply(BigDecimal.TWO));
                    assertThat(totals.getBigDecimal(2))
                            .as("shares of trader " + t)
                            .isEqualByComparingTo(SHARES.multiply(BigDecimal.TWO));
                }
            }
        }
    }

    private void trade(int trader, AtomicBoolean stop, AtomicInteger acknowledged) {
        Random random = new Random(trader);
        while (!stop.get()) {
            Instance active = instances.stream()
                    .filter(i -> i.sequencer().role() == Sequencer.Role.ACTIVE)
                    .findFirst()
                    .orElse(null);
            if (active == null) {
                sleep(20);
                continue;
            }
            String account = accounts(trader).get(random.nextInt(2));
            BigDecimal amount = BigDecimal.valueOf((random.nextBoolean() ? 1 : -1) * (1 + random.nextInt(5)));
            BigDecimal limit = BigDecimal.valueOf(95 + random.nextInt(11));
            try {
                Result result = active.sequencer()
                        .submit(engine -> engine.placeOrder(account, symbol(trader), amount, limit))
                        .get(2, TimeUnit.SECONDS);
                if (result instanceof Result.OrderOpened) acknowledged.incrementAndGet();
            } catch (Exception unavailableOrSilent) {
                // As a client that gave up: the command may still be applied.
                sleep(20);
            }
        }
    }

    private static List<String> accounts(int trader) {
        return List.of("9" + trader + "0", "9" + trader + "1");
    }

    private static String symbol(int trader) {
        return "T" + trader;
    }

    private Instance awaitActive(Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            for (Instance instance : instances) {
                if (instance.sequencer().role() == Sequencer.Role.ACTIVE) return instance;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no instance became active within " + within);
    }

    private static void awaitRole(Instance instance, Sequencer.Role role) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (instance.sequencer().role() != role) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("still " + instance.sequencer().role() + ", not " + role);
            }
            Thread.sleep(20);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
