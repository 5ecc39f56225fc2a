package dev.agora.exchange.sequencer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agora.exchange.matching.Rejection;
import dev.agora.exchange.matching.Result;
import dev.agora.exchange.support.FreshSchema;
import dev.agora.exchange.support.InTestExchange;
import dev.agora.exchange.support.TestStores;
import dev.agora.local.postgres.PostgresServer;
import dev.agora.local.postgres.SharedPostgres;
import jakarta.persistence.EntityManagerFactory;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The sequencer against a real PostgreSQL whose connection is cut under it: the batch whose commit failed is
 * answered with an error and leaves no trace, neither in the database nor in the engine, and the sequencer
 * comes back by itself (new connection, lock retaken, state reloaded).
 */
class SequencerRecoveryTest {

    private final PostgresServer postgres = SharedPostgres.get();
    private final String url = postgres.jdbcUrl("exchange_sequencer");
    private EntityManagerFactory entities;
    private Sequencer sequencer;

    @BeforeEach
    void start() throws Exception {
        FreshSchema.migrate(postgres, url);
        DriverManagerDataSource dataSource = TestStores.dataSource(postgres, url, "sequencer-under-test");
        entities = TestStores.entities(dataSource);
        sequencer = new Sequencer(
                TestStores.store(dataSource, entities, InTestExchange.LEASE), () -> 1_700_000_000L, 1_000, 100);
        sequencer.start();
        awaitActive();
    }

    @AfterEach
    void stop() {
        sequencer.close();
        entities.close();
    }

    @Test
    void aFailedCommitLeavesNoTraceAndTheSequencerRecovers() throws Exception {
        assertThat(createAccount("1")).isEqualTo(new Result.AccountCreated("1"));

        // Cut the sequencer's database session: its next commit fails.
        try (Connection connection = admin();
                Statement statement = connection.createStatement()) {
            statement.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    + "WHERE application_name = 'sequencer-under-test'");
        }
        assertThatThrownBy(() -> createAccount("2"))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(ExchangeUnavailableException.class);

        awaitActive();
        // Account 2 was applied in memory before the commit failed, yet it is gone: the engine was rebuilt.
        assertThat(createAccount("2")).isEqualTo(new Result.AccountCreated("2"));
        assertThat(createAccount("1")).isEqualTo(Result.rejected(Rejection.ACCOUNT_EXISTS));
        try (Connection connection = admin();
                Statement statement = connection.createStatement();
                var rows = statement.executeQuery("SELECT count(*) FROM account")) {
            rows.next();
            assertThat(rows.getInt(1)).isEqualTo(2);
        }
    }

    /**
     * Another instance takes the lease over while this one still believes it leads (its local lease has seconds to
     * run): the fence in its next batch's statement refuses the write, nothing of it reaches the tables, and the
     * sequencer stands by until the lease is free again.
     */
    @Test
    void aDeposedLeadersBatchIsFencedOffAndItStandsBy() throws Exception {
        assertThat(createAccount("1")).isEqualTo(new Result.AccountCreated("1"));
        try (Connection connection = admin();
                Statement statement = connection.createStatement()) {
            statement.execute("UPDATE leader_lease SET epoch = epoch + 1, holder = 'another instance',"
                    + " expires_at = clock_timestamp() + interval '1 hour' WHERE name = 'exchange'");
        }

        assertThatThrownBy(() -> createAccount("2"))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(ExchangeUnavailableException.class);
        for (int i = 0; i < 100 && sequencer.role() != Sequencer.Role.STANDBY; i++) Thread.sleep(50);
        assertThat(sequencer.role()).isEqualTo(Sequencer.Role.STANDBY);
        assertThatThrownBy(() -> createAccount("3"))
                .as("a standby takes no command")
                .hasCauseInstanceOf(ExchangeUnavailableException.class);
        assertThat(accounts()).isEqualTo(1);

        try (Connection connection = admin();
                Statement statement = connection.createStatement()) {
            statement.execute("UPDATE leader_lease SET expires_at = '-infinity' WHERE name = 'exchange'");
        }
        awaitActive();
        assertThat(createAccount("2"))
                .as("the fenced-off account was never written")
                .isEqualTo(new Result.AccountCreated("2"));
        assertThat(accounts()).isEqualTo(2);
    }

    private int accounts() throws Exception {
        try (Connection connection = admin();
                Statement statement = connection.createStatement();
                var rows = statement.executeQuery("SELECT count(*) FROM account")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    private Result createAccount(String id) throws Exception {
        return sequencer
                .submit(engine -> engine.createAccount(id, BigDecimal.TEN))
                .get(10, TimeUnit.SECONDS);
    }

    private void awaitActive() throws InterruptedException {
        for (int i = 0; i < 200 && sequencer.role() != Sequencer.Role.ACTIVE; i++) Thread.sleep(50);
        assertThat(sequencer.role()).isEqualTo(Sequencer.Role.ACTIVE);
    }

    private Connection admin() throws Exception {
        return DriverManager.getConnection(url, postgres.username(), postgres.password());
    }
}
