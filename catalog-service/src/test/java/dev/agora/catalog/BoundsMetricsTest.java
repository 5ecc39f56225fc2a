package dev.agora.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.agora.common.testing.ServerBoundsMetrics;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Every pool and queue of the catalog shows its depth (or use), its bound and what it refused in the Prometheus
 * scrape of the real service; the invalidation sessions' queue, filled to its bound, counts the overflow and still
 * handles it (on the thread that offered it, its policy).
 */
class BoundsMetricsTest extends CatalogTestSupport {

    @Autowired
    ThreadPoolExecutor invalidationSessionThreads;

    @Autowired
    HikariDataSource database;

    @Test
    void everyPoolAndQueueHasADepthABoundAndARejectionMetric() {
        String scrape = scrape();
        assertThat(scrape)
                .contains(ServerBoundsMetrics.TOMCAT_AND_HIKARI)
                .contains(List.of(
                        // The invalidation sessions' threads and queue.
                        "executor_queued_tasks{name=\"agora.invalidation.sessions\"",
                        "executor_active_threads{name=\"agora.invalidation.sessions\"",
                        "agora_executor_queue_capacity{name=\"agora.invalidation.sessions\"",
                        "agora_executor_rejected_total{name=\"agora.invalidation.sessions\"",
                        // The reservation writer's backlog (group commit).
                        "# TYPE agora_reservations_waiting gauge",
                        "# TYPE agora_reservations_waiting_capacity gauge",
                        "agora_reservations_alone_total{reason=\"backlog-full\"",
                        // Single-thread schedulers, one task each.
                        "executor_queued_tasks{name=\"agora.invalidation.reconnects\"",
                        "agora_executor_rejected_total{name=\"agora.invalidation.reconnects\"",
                        "executor_queued_tasks{name=\"agora.clock\"",
                        // The node-to-node file copies' connection pool.
                        "httpcomponents_httpclient_pool_total_pending{httpclient=\"file-copies\"",
                        "httpcomponents_httpclient_pool_total_max{httpclient=\"file-copies\"",
                        "agora_files_copies_pool_rejected_total",
                        // What a client may send: bodies refused (rate limits are the frontend's alone).
                        "agora_limits_body_rejected_total",
                        // Verified tokens remembered against their bound.
                        "agora_security_tokens_remembered ",
                        "agora_security_tokens_remembered_capacity"));
    }

    /**
     * Both session threads held, the queue filled to its bound: one more message is counted as refused by the queue
     * and handled at once on the offering thread, and the queue never holds more than its bound.
     */
    @Test
    void aFullInvalidationQueueCountsTheOverflowAndHandlesItOnTheOfferingThread() throws Exception {
        double rejectedBefore = metric(scrape(), "agora_executor_rejected_total{name=\"agora.invalidation.sessions\"");
        int capacity = invalidationSessionThreads.getQueue().remainingCapacity()
                + invalidationSessionThreads.getQueue().size();
        CountDownLatch hold = new CountDownLatch(1);
        CountDownLatch held = new CountDownLatch(invalidationSessionThreads.getMaximumPoolSize());
        try {
            for (int i = 0; i < invalidationSessionThreads.getMaximumPoolSize(); i++) {
                invalidationSessionThreads.execute(() -> {
                    held.countDown();
                    await(hold);
                });
            }
            assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
            while (invalidationSessionThreads.getQueue().remainingCapacity() > 0) {
                invalidationSessionThreads.execute(() -> {});
            }

            AtomicReference<Thread> ranOn = new AtomicReference<>();
            long started = System.nanoTime();
            invalidationSessionThreads.execute(() -> ranOn.set(Thread.currentThread()));
            assertThat(ranOn.get()).isSameAs(Thread.currentThread());
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));

            String full = scrape();
            assertThat(metric(full, "executor_queued_tasks{name=\"agora.invalidation.sessions\""))
                    .isEqualTo(capacity);
            assertThat(metric(full, "agora_executor_queue_capacity{name=\"agora.invalidation.sessions\""))
                    .isEqualTo(capacity);
            assertThat(metric(full, "agora_executor_rejected_total{name=\"agora.invalidation.sessions\""))
                    .isEqualTo(rejectedBefore + 1);
        } finally {
            hold.countDown();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!invalidationSessionThreads.getQueue().isEmpty() && System.nanoTime() < deadline) Thread.sleep(10);
        assertThat(invalidationSessionThreads.getQueue()).isEmpty();
    }

    /**
     * Every connection of the Hikari pool taken: a read that needs one waits the pool's connection timeout, then gets
     * 503 problem+json, counted in
     * {@code hikaricp_connections_timeout_total}; once connections are back the same read is answered.
     */
    @Test
    void aFullConnectionPoolIsAnswered503AndCounted() throws Exception {
        long book = newBook("bounds", 3).path("id").asLong();
        double timeoutsBefore = metric(scrape(), "hikaricp_connections_timeout_total{");
        List<Connection> taken = new ArrayList<>();
        try {
            for (int i = 0; i < database.getMaximumPoolSize(); i++) taken.add(database.getConnection());

            long started = System.nanoTime();
            Response refused = get("/books/" + book);
            assertThat(refused.status()).isEqualTo(503);
            assertThat(refused.isProblem()).isTrue();
            assertThat(refused.problemType()).endsWith("/service-unavailable");
            // The pool's connection-timeout (5 s), plus a busy machine's margin: an answer, not a hang.
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .isLessThan(
                            Duration.ofMillis(database.getConnectionTimeout()).plusSeconds(5));
        } finally {
            for (Connection connection : taken) connection.close();
        }
        assertThat(metric(scrape(), "hikaricp_connections_timeout_total{")).isGreaterThan(timeoutsBefore);
        assertThat(get("/books/" + book).status()).isEqualTo(200);
    }

    private String scrape() {
        Response scrape = get("/actuator/prometheus");
        assertThat(scrape.status()).isEqualTo(200);
        return scrape.body();
    }

    /** The value of the first sample whose line starts with {@code prefix} (a name and the start of its tags). */
    static double metric(String scrape, String prefix) {
        Matcher sample = Pattern.compile("(?m)^" + Pattern.quote(prefix) + "[^}]*} (\\S+)$")
                .matcher(scrape);
        assertThat(sample.find()).as("a sample of " + prefix).isTrue();
        return Double.parseDouble(sample.group(1));
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
