package dev.agora.perf.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class OpenLoadTest {

    @Test
    void sendsRateTimesDurationRequestsAndCountsFailures() throws Exception {
        try (LocalServer server = new LocalServer(4);
                HttpDriver http = new HttpDriver(32)) {
            AtomicInteger calls = new AtomicInteger();

            OpenLoad.Result result = OpenLoad.run(200, Duration.ofMillis(500), i -> {
                calls.incrementAndGet();
                return http.get(server.url(i % 10 == 0 ? "/fail" : "/ok"));
            });

            assertThat(calls.get()).isEqualTo(100);
            assertThat(result.fromIntendedStart().count()).isEqualTo(100);
            assertThat(result.serviceTime().count()).isEqualTo(100);
            assertThat(result.failures()).isEqualTo(10);
            assertThat(result.incomplete()).isZero();
            assertThat(result.offeredPerSecond()).isEqualTo(200);
            assertThat(result.achievedPerSecond()).isPositive();
        }
    }

    /**
     * Requests arrive every 10 ms but the server (one thread) takes 50 ms each: the queue grows with every
     * arrival, and latency measured from the intended send times must show it, not the 50 ms service time.
     */
    @Test
    void queueingBehindASlowServerShowsInLatencyFromIntendedStart() throws Exception {
        try (LocalServer server = new LocalServer(1);
                HttpDriver http = new HttpDriver(64)) {

            OpenLoad.Result result = OpenLoad.run(100, Duration.ofMillis(300), i -> http.get(server.url("/slow")));

            assertThat(result.fromIntendedStart().count()).isEqualTo(30);
            assertThat(result.failures()).isZero();
            // the last of 30 arrivals waits for the 29 before it: about 30 x 50 ms - 300 ms
            assertThat(result.fromIntendedStart().maxMillis()).isGreaterThan(800);
            assertThat(result.fromIntendedStart().percentileMillis(50)).isGreaterThan(300);
            assertThat(result.achievedPerSecond()).isLessThan(0.9 * result.offeredPerSecond());
        }
    }
}
