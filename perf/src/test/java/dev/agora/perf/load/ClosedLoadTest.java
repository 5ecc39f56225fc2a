package dev.agora.perf.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ClosedLoadTest {

    private static LocalServer server;
    private static HttpDriver http;

    @BeforeAll
    static void start() throws Exception {
        server = new LocalServer(8);
        http = new HttpDriver(8);
    }

    @AfterAll
    static void stop() {
        http.close();
        server.close();
    }

    @Test
    void everyClientSendsItsRequestsAndEveryCallIsTimed() {
        int before = server.received.get();

        LoadResult result = ClosedLoad.run(4, 25, (client, i, recorder) -> {
            recorder.time("ok", () -> http.get(server.url("/ok")));
            if (i % 5 == 0) recorder.time("fail", () -> http.postJson(server.url("/fail"), "{}", Map.of()));
        });

        assertThat(server.received.get() - before).isEqualTo(4 * 25 + 4 * 5);
        assertThat(result.latency("ok").count()).isEqualTo(100);
        assertThat(result.latency("fail").count()).isEqualTo(20);
        assertThat(result.failures("ok")).isZero();
        assertThat(result.failures("fail")).isEqualTo(20);
        assertThat(result.totalFailures()).isEqualTo(20);
        assertThat(result.samples()).hasSize(120);
        assertThat(result.samples()).isSortedAccordingTo((a, b) -> Long.compare(a.startNanos(), b.startNanos()));
        assertThat(result.samples().stream().map(Sample::client).distinct()).containsExactlyInAnyOrder(0, 1, 2, 3);
        assertThat(result.all().count()).isEqualTo(120);
        assertThat(result.summary("ok").throughputPerSecond()).isPositive();
    }

    @Test
    void expectedStatusRangeDecidesWhatCountsAsAFailure() {
        LoadResult result = ClosedLoad.run(
                1, 3, (client, i, recorder) -> recorder.time("fail", () -> http.get(server.url("/fail")), 500, 599));

        assertThat(result.failures("fail")).isZero();
        assertThat(result.samples("fail")).allMatch(sample -> sample.status() == 500 && !sample.ok());
    }

    @Test
    void repliesCarryBodyStatusAndServerTiming() {
        HttpReply reply = http.get(server.url("/ok"));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.body()).isEqualTo("{\"ok\":true}");
        assertThat(reply.serverTiming().durationMs("catalog")).contains(0.5);
        assertThat(reply.serverTiming().cacheHit()).isFalse();
    }

    @Test
    void aRefusedConnectionIsAFailedReplyNotAnException() throws Exception {
        int port;
        try (var socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        HttpReply reply = http.get("http://127.0.0.1:" + port + "/ok");

        assertThat(reply.status()).isZero();
        assertThat(reply.isSuccess()).isFalse();
        assertThat(reply.failure()).isNotBlank();
    }

    @Test
    void aFailingWorkloadStopsTheLoadAndSaysWhy() {
        assertThatThrownBy(() -> ClosedLoad.run(2, 10, (client, i, recorder) -> {
                    if (i == 3) throw new IllegalStateException("broken workload");
                }))
                .isInstanceOf(IllegalStateException.class)
                .hasRootCauseMessage("broken workload");
    }
}
