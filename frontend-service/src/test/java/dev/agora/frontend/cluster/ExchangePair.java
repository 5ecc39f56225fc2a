package dev.agora.frontend.cluster;

import dev.agora.local.cluster.FreePorts;
import dev.agora.local.cluster.Health;
import dev.agora.local.cluster.LocalProcesses;
import dev.agora.local.cluster.LocalProfile;
import dev.agora.local.postgres.PostgresServer;
import dev.agora.local.postgres.SharedPostgres;
import dev.agora.local.process.ServiceProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The exchange behind the suite's trading tests: two processes from its exec jar (so they can be killed and frozen) on
 * one database of the shared PostgreSQL, active and standby under the production lease, trusting the tokens of
 * frontends A and B. Started once per test JVM at first use, so that the tests that trade share two exchange JVMs
 * instead of starting their own: {@code ExchangeTakeoverTest} kills and freezes the active one (and leaves both
 * running again), {@code WebPagesTest} trades through whichever is active. They listen on the ports the cluster's
 * frontend C was started with ({@link BookstoreCluster#exchangeUrls()}), so the takeover test, the web pages and the
 * live desk streams' tests trade through that frontend instead of starting one each.
 */
public final class ExchangePair {

    private static final Duration READY = BookstoreCluster.readyTimeout();
    private static final List<String> JVM_OPTIONS =
            List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss512k", "-Xmx256m");

    private static ExchangePair shared;
    private static RuntimeException startFailure;

    private final LocalProcesses processes = new LocalProcesses(Path.of("target", "cluster-logs"));
    private final List<ServiceProcess> exchanges = new ArrayList<>();
    private final BookstoreCluster cluster;
    private final PostgresServer postgres;
    private final String jdbcUrl;
    private boolean serving;

    /**
     * The pair, its first exchange started (it migrates the database and takes the lease); {@link #awaitServing()}
     * waits for it and starts the standby, so that a caller can start its frontend in the meantime.
     */
    public static synchronized ExchangePair get() {
        if (startFailure != null) throw new IllegalStateException("The test exchanges did not start", startFailure);
        if (shared == null) {
            try {
                shared = new ExchangePair(BookstoreCluster.get());
            } catch (RuntimeException e) {
                startFailure = e;
                throw e;
            }
            Runtime.getRuntime().addShutdownHook(new Thread(shared.processes::close, "exchange-pair-stop"));
        }
        return shared;
    }

    private ExchangePair(BookstoreCluster cluster) {
        this.cluster = cluster;
        postgres = SharedPostgres.get();
        jdbcUrl = postgres.jdbcUrl("fe_exchange_" + Long.toString(System.currentTimeMillis() % 1_000_000, 36));
        String authorities = cluster.frontend(0) + "," + cluster.frontend(1);
        try {
            for (int i = 0; i < 2; i++) {
                int tcpPort = FreePorts.next();
                // On the ports frontend C of the cluster was given for it.
                exchanges.add(processes.service(
                        "exchange-service",
                        "exchange-" + i,
                        cluster.exchangePorts().get(i),
                        exchange -> exchange.env(
                                        LocalProfile.database(jdbcUrl, postgres.username(), postgres.password()))
                                .env(LocalProfile.trusting(authorities))
                                .env("AGORA_EXCHANGE_TCP_PORT", Integer.toString(tcpPort))
                                .env("AGORA_EXCHANGE_TCP_HOST", "127.0.0.1")
                                .jvmOptions(JVM_OPTIONS)));
            }
            exchanges.getFirst().start();
        } catch (RuntimeException e) {
            processes.close();
            throw e;
        }
    }

    /**
     * Waits until the first exchange is ready and the second stands by (at once after the first call), then until
     * frontend C's load balancer offers the active exchange alone: C ran before the pair did, and until its health
     * checks have seen that the standby is not ready, a call through it could meet the standby's refusal.
     */
    public synchronized void awaitServing() {
        if (!serving) {
            exchanges.get(0).awaitReady(READY);
            exchanges.get(1).start();
            Health.await(exchanges.get(1), "\"role\":\"STANDBY\"", READY);
            serving = true;
        }
        try (Http http = new Http()) {
            AdmittedInstances.await(http, cluster.frontend(2), "exchange-service", 1, System.nanoTime(), READY);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Both exchanges, for killing and freezing. */
    public List<ServiceProcess> processes() {
        return List.copyOf(exchanges);
    }

    /** The exchange that is ready now (waits for one). */
    public ServiceProcess active() {
        long deadline = System.nanoTime() + READY.toNanos();
        while (System.nanoTime() < deadline) {
            for (ServiceProcess exchange : exchanges) {
                if (exchange.isAlive() && exchange.isReady()) return exchange;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError("no exchange became ready");
    }

    /** A connection to the exchange's database. */
    public Connection database() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, postgres.username(), postgres.password());
    }
}
