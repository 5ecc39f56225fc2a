package dev.agora.exchange.sequencer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agora.exchange.matching.Result;
import dev.agora.exchange.store.leader.LeaseSettings;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * A batch whose commit the sequencer gave up on (its session timed out) may still be running in PostgreSQL, fenced
 * with the leader's epoch, and commit later: a timed-out or closed session does not stop a statement the server is
 * executing. Here it waits for a row lock another session holds while the sequencer's commit times out; the lock is
 * released once the sequencer has rebuilt its engine. Whatever that batch does afterwards, the engine and the tables
 * must not disagree about money: if the rebuilt engine missed the batch, its next write of the account (a balance is
 * written as a value, not a delta) undoes the batch's debit while the order the batch placed keeps its reservation.
 */
class UnknownCommitOutcomeTest {

    private static final String SEQUENCER_SESSION = "sequencer-unknown-outcome";
    /** The production lease: the commit gives up after ten of them, at least five seconds. */
    private static final LeaseSettings LEASE =
            new LeaseSettings("exchange", Duration.ofMillis(500), Duration.ofMillis(100), Duration.ofMillis(100));

    private final PostgresServer postgres = SharedPostgres.get();
    private final String url = postgres.jdbcUrl("exchange_unknown_outcome");
    private EntityManagerFactory entities;
    private Sequencer sequencer;

    @BeforeEach
    void start() throws Exception {
        FreshSchema.migrate(postgres, url);
        DriverManagerDataSource dataSource = TestStores.dataSource(postgres, url, SEQUENCER_SESSION);
        entities = TestStores.entities(dataSource);
        sequencer = new Sequencer(TestStores.store(dataSource, entities, LEASE), () -> 1_700_000_000L, 1_000, 100);
        sequencer.start();
        awaitActive();
    }

    @AfterEach
    void stop() {
        sequencer.close();
        entities.close();
    }

    @Test
    void aBatchThatLandsAfterItsCommitTimedOutIsInTheRebuiltEngine() throws Exception {
        call(engine -> engine.createAccount("1", new BigDecimal("1000")));
        // A resting buy: 200 of the account's cash reserved, its balance 800.
        Result placed = call(engine -> engine.placeOrder("1", "X", BigDecimal.TWO, new BigDecimal("100")));
        long resting = ((Result.OrderOpened) placed).orderId();

        try (Connection locker = lockingAccount("1")) {
            // This batch's statement waits for the account's row lock until the sequencer's session gives up on it.
            CompletableFuture<Result> buy =
                    sequencer.submit(engine -> engine.placeOrder("1", "X", BigDecimal.ONE, new BigDecimal("50")));
            assertThatThrownBy(() -> buy.get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(ExchangeUnavailableException.class);
            assertThat(waitingStatements())
                    .as("the batch the sequencer gave up on still runs in PostgreSQL")
                    .isEqualTo(1);
            // Room for the sequencer to rebuild its engine before the batch goes on.
            Thread.sleep(1_000);
            locker.commit();
        }
        awaitActive();

        // Cancelling the first order rewrites the account's balance from the engine.
        call(engine -> engine.cancel("1", resting));
        BigDecimal inEngine = call(engine -> engine.account("1").orElseThrow().balance());
        assertThat(inEngine).as("the engine's balance is PostgreSQL's").isEqualByComparingTo(balanceOf("1"));
        assertThat(cashOf("1"))
                .as("balance plus what open buys reserve, in PostgreSQL")
                .isEqualByComparingTo("1000");
    }

    @Test
    void commandsStillQueuedWhenTheLeadershipEndsAreRefusedNotAppliedByTheNextOne() throws Exception {
        call(engine -> engine.createAccount("1", new BigDecimal("1000")));
        List<CompletableFuture<Result>> later = new ArrayList<>();
        try (Connection locker = lockingAccount("1")) {
            CompletableFuture<Result> buy =
                    sequencer.submit(engine -> engine.placeOrder("1", "X", BigDecimal.ONE, new BigDecimal("50")));
            for (int i = 0; i < 200 && waitingStatements() == 0; i++) Thread.sleep(25);
            assertThat(waitingStatements())
                    .as("the buy's batch waits in PostgreSQL")
                    .isEqualTo(1);
            // More than two batches' worth (100 each): the sequencer applies one batch and holds one more behind the
            // stuck commit, so the rest stay in its queue until the commit times out and the epoch is given up.
            for (int i = 0; i < 400; i++) {
                String account = "q" + i;
                later.add(sequencer.submit(engine -> engine.createAccount(account, BigDecimal.ONE)));
            }
            assertThatThrownBy(() -> buy.get(30, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(ExchangeUnavailableException.class);
            Thread.sleep(1_000);
            locker.rollback();
        }
        awaitActive();

        for (CompletableFuture<Result> command : later) {
            assertThatThrownBy(() -> command.get(30, TimeUnit.SECONDS))
                    .as("a command of the ended leadership")
                    .hasCauseInstanceOf(ExchangeUnavailableException.class);
        }
        try (Connection connection = admin();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT count(*) FROM account WHERE id LIKE 'q%'")) {
            rows.next();
            assertThat(rows.getInt(1))
                    .as("accounts the refused commands would have created")
                    .isZero();
        }
    }

    private <R> R call(Command<R> command) throws Exception {
        return sequencer.submit(command).get(30, TimeUnit.SECONDS);
    }

    /** A session of its own, in a transaction that holds the account's row lock until it ends. */
    private Connection lockingAccount(String account) throws Exception {
        Connection locker = admin();
        locker.setAutoCommit(false);
        try (Statement statement = locker.createStatement()) {
            statement.execute("SELECT 1 FROM account WHERE id = '" + account + "' FOR UPDATE");
        }
        return locker;
    }

    private int waitingStatements() throws Exception {
        try (Connection connection = admin();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE application_name"
                        + " = '" + SEQUENCER_SESSION + "' AND wait_event_type = 'Lock'")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    private BigDecimal balanceOf(String account) throws Exception {
        try (Connection connection = admin();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT balance FROM account WHERE id = '" + account + "'")) {
            rows.next();
            return rows.getBigDecimal(1);
        }
    }

    private BigDecimal cashOf(String account) throws Exception {
        try (Connection connection = admin();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT balance + (SELECT coalesce(sum(open_shares *"
                        + " limit_price), 0) FROM exchange_order WHERE account_id = a.id AND amount > 0) FROM account"
                        + " a WHERE id = '" + account + "'")) {
            rows.next();
            return rows.getBigDecimal(1);
        }
    }

    private void awaitActive() throws InterruptedException {
        for (int i = 0; i < 400 && sequencer.role() != Sequencer.Role.ACTIVE; i++) Thread.sleep(50);
        assertThat(sequencer.role()).isEqualTo(Sequencer.Role.ACTIVE);
    }

    private Connection admin() throws Exception {
        return DriverManager.getConnection(url, postgres.username(), postgres.password());
    }
}
