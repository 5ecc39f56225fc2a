package dev.agora.frontend.failover;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.frontend.cluster.AdmittedInstances;
import dev.agora.frontend.cluster.BookstoreCluster;
import dev.agora.frontend.cluster.Http;
import dev.agora.frontend.cluster.Metrics;
import dev.agora.local.process.ServiceProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.support.LoadBalancerClientFactory;
import reactor.core.publisher.Mono;

/**
 * Failover through the frontend against real catalog processes that are killed ({@code SIGKILL}) and frozen
 * ({@code SIGSTOP}) under a bounded concurrent load of lookups. Lookups go through frontend C, which does
 * not cache, so every one of them reaches a catalog replica. Figures go to
 * {@code target/failover-report.txt}; only correctness is asserted.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FailoverTest {

    private static final int CLIENTS = 6;
    /** Failed calls that open a replica's breaker (common's ReplicaBreakers: minimum number of calls). */
    private static final int EJECTING_CALLS = 5;

    private static BookstoreCluster cluster;
    private static Http http;
    private static String frontend;

    @BeforeAll
    static void start() {
        cluster = BookstoreCluster.get();
        http = new Http();
        frontend = cluster.frontend(2);
    }

    @AfterAll
    static void restore() throws Exception {
        try {
            for (ServiceProcess catalog : cluster.catalogs) {
                catalog.thaw();
                if (!catalog.isAlive()) {
                    catalog.startAndAwaitReady(BookstoreCluster.readyTimeout());
                    BookstoreCluster.warmUp(http, catalog);
                }
            }
            cluster.awaitCachesLeased();
        } finally {
            http.close();
        }
    }

    @Test
    @Order(1)
    void freezingACatalogReplicaUnderLoadFailsNoRequest() throws Exception {
        ServiceProcess frozen = cluster.catalogs.get(0);
        List<LookupLoad.Sample> samples;
        long frozenAt;
        try (LookupLoad load = new LookupLoad(http, frontend, CLIENTS, 30)) {
            sleep(1_000);
            frozenAt = System.nanoTime();
            frozen.freeze();
            sleep(3_000);
            samples = load.stop();
        } finally {
            frozen.thaw();
        }

        assertNoFailures(samples);
        report("freeze", samples, frozenAt);
        report("freeze: thawed replica back in service after", awaitTraffic(frozen, System.nanoTime()));
    }

    @Test
    @Order(2)
    void killingACatalogReplicaUnderLoadFailsNoRequest() throws Exception {
        ServiceProcess killed = cluster.catalogs.get(1);
        List<LookupLoad.Sample> samples;
        long killedAt;
        try (LookupLoad load = new LookupLoad(http, frontend, CLIENTS, 30)) {
            sleep(1_000);
            killedAt = System.nanoTime();
            killed.kill();
            sleep(2_000);
            samples = load.stop();
        }

        assertNoFailures(samples);
        report("kill", samples, killedAt);
    }

    @Test
    @Order(3)
    void withEveryCatalogReplicaDownLookupsAreQuick503ProblemsUntilOneReturns() throws Exception {
        ServiceProcess last = cluster.catalogs.get(0);
        assertThat(cluster.catalogs.get(1).isAlive())
                .as("killed by the previous test")
                .isFalse();
        last.freeze();
        try {
            awaitNoCatalogAdmitted();
            for (int i = 0; i < 5; i++) {
                long started = System.nanoTime();
                Http.Response answer = http.get(frontend + "/api/books/1");
                long millis = (System.nanoTime() - started) / 1_000_000;

                assertThat(answer.status()).isEqualTo(503);
                assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
                assertThat(answer.json().get("type").asString())
                        .isEqualTo("https://agora.dev/problems/service-unavailable");
                assertThat(millis).as("answered without waiting on a replica").isLessThan(1_000);
                report("all down: 503 answered in", millis);
            }
        } finally {
            last.thaw();
        }
        long thawed = System.nanoTime();
        Http.Response answer;
        do {
            sleep(20);
            answer = http.get(frontend + "/api/books/1");
        } while (answer.status() != 200 && System.nanoTime() - thawed < 15_000_000_000L);
        assertThat(answer.status()).as("recovered by itself").isEqualTo(200);
        report("all down: first 200 after thaw in", (System.nanoTime() - thawed) / 1_000_000);
    }

    @Test
    @Order(4)
    void aRestartedReplicaGetsTrafficAgainSoonAfterItIsReady() throws Exception {
        ServiceProcess restarted = cluster.catalogs.get(1);
        // The replica starts beside an idle frontend and the load begins at its readiness, where what this test
        // measures begins: a load while it started took the cores it needed (its start took about three times as
        // long) and met only the other replica, as the previous tests' loads did.
        restarted.startAndAwaitReady(BookstoreCluster.readyTimeout());
        try (LookupLoad load = new LookupLoad(http, frontend, 2, 300)) {
            long ready = System.nanoTime();
            report(
                    "restart: ready replica back in rotation after",
                    AdmittedInstances.await(
                            http, frontend, "catalog-service", cluster.catalogs.size(), ready, Duration.ofSeconds(10)));
            long millis = awaitTraffic(restarted, ready);
            report("restart: ready replica back in service after", millis);
            load.stop();
            BookstoreCluster.warmUp(http, restarted);
        }
    }

    /**
     * Waits until frontend C's load balancer offers no catalog replica: its health checks and failed calls have
     * ejected every one, and no last resort is left (a replica out of the health-checked list is still tried while its
     * breaker is closed, so the frozen one is until its failed calls open its breaker). The calls that open it each
     * wait out a read timeout, so a breaker's minimum number of them goes at once rather than one after the other.
     */
    private static void awaitNoCatalogAdmitted() {
        ServiceInstanceListSupplier listed = cluster.frontendContext(2)
                .getBean(LoadBalancerClientFactory.class)
                .getInstance("catalog-service", ServiceInstanceListSupplier.class);
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!Mono.from(listed.get()).block(Duration.ofSeconds(5)).isEmpty()) {
            if (System.nanoTime() > deadline) throw new AssertionError("catalog replicas still admitted after 30 s");
            // A call to the frozen replica counts against its breaker at its read timeout.
            try (ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < EJECTING_CALLS; i++) callers.submit(() -> http.get(frontend + "/api/books/1"));
            }
        }
    }

    /** Milliseconds from {@code since} until the replica has served lookups again (fails after 10 s). */
    private static long awaitTraffic(ServiceProcess replica, long since) {
        long before = Metrics.businessRequests(http, replica);
        try (LookupLoad load = new LookupLoad(http, frontend, 2, 15)) {
            while (System.nanoTime() - since < 10_000_000_000L) {
                if (Metrics.businessRequests(http, replica) > before) {
                    return (System.nanoTime() - since) / 1_000_000;
                }
                sleep(25);
            }
        }
        throw new AssertionError(replica.name() + " got no traffic within 10 s");
    }

    private static void assertNoFailures(List<LookupLoad.Sample> samples) {
        assertThat(samples).isNotEmpty();
        assertThat(samples.stream().filter(s -> s.status() != 200).toList())
                .as("failed client requests")
                .isEmpty();
    }

    private static void report(String event, List<LookupLoad.Sample> samples, long eventAt) {
        long[] before = samples.stream()
                .filter(s -> s.startedNanos() < eventAt - 100_000_000L)
                .mapToLong(LookupLoad.Sample::durationNanos)
                .sorted()
                .toArray();
        long[] around = samples.stream()
                .filter(s ->
                        s.startedNanos() + s.durationNanos() >= eventAt && s.startedNanos() < eventAt + 1_500_000_000L)
                .mapToLong(LookupLoad.Sample::durationNanos)
                .sorted()
                .toArray();
        String line = String.format(
                "%s: %d requests, 0 failed; p50 before %.2f ms; in the 1.5 s after: %d requests, p50 %.2f ms,"
                        + " max %.1f ms (added latency ~%.1f ms)",
                event,
                samples.size(),
                millis(percentile(before, 50)),
                around.length,
                millis(percentile(around, 50)),
                millis(around.length == 0 ? 0 : around[around.length - 1]),
                millis((around.length == 0 ? 0 : around[around.length - 1]) - percentile(before, 50)));
        write(line);
    }

    private static void report(String what, long millis) {
        write(what + " " + millis + " ms");
    }

    static void write(String line) {
        System.out.println("[failover] " + line);
        try {
            Path file = Path.of("target", "failover-report.txt");
            Files.createDirectories(file.getParent());
            Files.writeString(
                    file, line + System.lineSeparator(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long percentile(long[] sorted, int p) {
        if (sorted.length == 0) return 0;
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }

    private static double millis(long nanos) {
        return nanos / 1_000_000.0;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
