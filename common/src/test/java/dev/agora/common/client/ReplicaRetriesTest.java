package dev.agora.common.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.agora.common.CommonTestApplication;
import dev.agora.common.security.testing.TestIssuer;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.client.loadbalancer.LoadBalanced;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.support.LoadBalancerClientFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Scope;
import org.springframework.retry.RetryCallback;
import org.springframework.retry.RetryContext;
import org.springframework.retry.RetryListener;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.annotation.PostExchange;
import reactor.core.publisher.Mono;

/**
 * Which calls Spring Cloud LoadBalancer repeats on another replica with {@link ReplicaRetries}, against real HTTP
 * replicas on loopback ({@link ReplicaServer}s): {@code writes} is called as the frontend calls its tiers (reads, and
 * writes with an idempotency key, after any failure; every call when nothing was applied; a longer timeout for writes
 * that cannot be repeated), {@code leader} as the frontend calls the exchange (one leader at a time: a call that finds
 * no replica listed looks again every 100 ms).
 */
@SpringBootTest(
        classes = {CommonTestApplication.class, ReplicaRetriesTest.Clients.class},
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = {
            "spring.profiles.active=local",
            "spring.cloud.loadbalancer.health-check.interval=200ms",
            // Health checks that will not notice a stopped replica during a test: its breaker has to.
            "spring.cloud.loadbalancer.clients.writes.health-check.interval=30s",
            "spring.cloud.loadbalancer.retry.max-retries-on-next-service-instance=2",
            "spring.cloud.loadbalancer.retry.retryable-status-codes=500,502,503,504",
            "spring.cloud.loadbalancer.clients.leader.retry.max-retries-on-next-service-instance=14",
            "spring.cloud.loadbalancer.clients.leader.retry.retryable-status-codes=503",
            "spring.cloud.loadbalancer.clients.leader.retry.backoff.enabled=true",
            "spring.cloud.loadbalancer.clients.leader.retry.backoff.min-backoff=100ms",
            "spring.cloud.circuitbreaker.resilience4j.disable-thread-pool=true",
            "agora.clients.writes.timeout=300ms",
            "agora.clients.writes.not-idempotent-timeout=3s",
            "agora.clients.leader.timeout=1s"
        })
class ReplicaRetriesTest {

    private static final TestIssuer ISSUER = new TestIssuer();
    private static final List<ReplicaServer> REPLICAS = List.of(new ReplicaServer(), new ReplicaServer());
    private static final List<String> SERVICES = List.of("writes", "leader");
    private static final Queue<Object> CAUSES = new ConcurrentLinkedQueue<>();

    interface Calls {
        @GetExchange("/item")
        String read();

        @PostExchange("/item")
        String write();

        @PostExchange("/item")
        String write(@RequestHeader("Idempotency-Key") String key);
    }

    @Configuration(proxyBeanMethods = false)
    @Import(LoadBalancedClients.class)
    static class Clients {

        @Bean
        @LoadBalanced
        @Scope("prototype")
        RestClient.Builder writes(LoadBalancedClients clients) {
            return clients.builder("writes");
        }

        @Bean
        @LoadBalanced
        @Scope("prototype")
        RestClient.Builder leader(LoadBalancedClients clients) {
            return clients.builder("leader");
        }

        @Bean
        @LoadBalanced
        @Scope("prototype")
        RestClient.Builder idle(LoadBalancedClients clients) {
            return clients.builder("idle");
        }

        @Bean
        Calls writesClient(LoadBalancedClients clients, @Qualifier("writes") RestClient.Builder builder) {
            return clients.client("writes", builder, Calls.class);
        }

        /** Built, never called. */
        @Bean
        Calls idleClient(LoadBalancedClients clients, @Qualifier("idle") RestClient.Builder builder) {
            return clients.client("idle", builder, Calls.class);
        }

        @Bean
        Calls leaderClient(LoadBalancedClients clients, @Qualifier("leader") RestClient.Builder builder) {
            return clients.client("leader", builder, Calls.class);
        }

        /** What an application's listener hears: why each failed attempt failed. */
        @Bean
        RetryListener causes() {
            return new RetryListener() {
                @Override
                public <T, E extends Throwable> void onError(
                        RetryContext context, RetryCallback<T, E> callback, Throwable failed) {
                    CAUSES.add(context.getAttribute(ReplicaRetries.CAUSE));
                }
            };
        }
    }

    @DynamicPropertySource
    static void replicas(DynamicPropertyRegistry registry) {
        registry.add("agora.security.authorities", ISSUER::url);
        for (String service : SERVICES) ReplicaServer.list(registry, service, REPLICAS);
    }

    @AfterAll
    static void stop() {
        REPLICAS.forEach(ReplicaServer::stop);
        ISSUER.close();
    }

    @Autowired
    CircuitBreakerRegistry breakers;

    @Autowired
    LoadBalancerClientFactory loadBalancers;

    @Autowired
    MeterRegistry meters;

    @Autowired
    @Qualifier("writesClient")
    Calls writes;

    @Autowired
    @Qualifier("leaderClient")
    Calls leader;

    @BeforeEach
    void everyReplicaHealthyAndClosed() {
        // A read of the test before that timed out is answered, and counted, when the replica's delay is over.
        await().atMost(Duration.ofSeconds(10)).until(() -> REPLICAS.stream().allMatch(ReplicaServer::idle));
        REPLICAS.forEach(ReplicaServer::reset);
        for (String service : SERVICES) {
            for (ReplicaServer replica : REPLICAS)
                replica.breaker(breakers, service).reset();
            await().atMost(Duration.ofSeconds(20)).until(() -> listed(service) == REPLICAS.size());
        }
        CAUSES.clear();
    }

    private int listed(String service) {
        var supplier = loadBalancers.getInstance(service, ServiceInstanceListSupplier.class);
        List<?> now = Mono.from(supplier.get()).block(Duration.ofSeconds(5));
        return now == null ? 0 : now.size();
    }

    private static int servedTotal() {
        return REPLICAS.stream().mapToInt(r -> r.served.get()).sum();
    }

    private static String port(int replica) {
        return REPLICAS.get(replica).answer();
    }

    @Test
    void aWriteThatMayHaveBeenAppliedIsNotRepeatedButAKeyedWriteIs() {
        REPLICAS.get(0).mode = ReplicaServer.Mode.ERROR;
        int unknown = 0;
        for (int i = 0; i < 6; i++) {
            int before = servedTotal();
            try {
                assertThat(writes.write()).isEqualTo(port(1));
            } catch (HttpServerErrorException outcomeUnknown) {
                unknown++;
                assertThat(outcomeUnknown.getStatusCode().value()).isEqualTo(500);
            }
            assertThat(servedTotal() - before).as("sent once").isEqualTo(1);
        }
        assertThat(unknown).as("writes that met the failing replica first").isPositive();

        for (int i = 0; i < 6; i++) assertThat(writes.write("key-" + i)).isEqualTo(port(1));
        for (int i = 0; i < 6; i++) assertThat(writes.read()).isEqualTo(port(1));
    }

    @Test
    void aRefusalThatAppliedNothingIsRepeatedElsewhereEvenWhenNotIdempotent() {
        REPLICAS.get(0).mode = ReplicaServer.Mode.NOT_APPLIED;

        for (int i = 0; i < 10; i++) assertThat(writes.write()).isEqualTo(port(1));

        assertThat(CAUSES).isNotEmpty().containsOnly("refused");
    }

    @Test
    void aWriteRefusedAtConnectIsRepeatedElsewhereAndTheListenersHearWhy() {
        REPLICAS.get(0).stop();
        // Past the pool's check of idle connections: a write on a connection the replica closed may have been sent.
        ReplicaServer.sleep(1_500);

        for (int i = 0; i < 4; i++) assertThat(writes.write()).isEqualTo(port(1));

        assertThat(CAUSES)
                .as("the first write to the stopped replica ejected it")
                .containsExactly("connect");
    }

    @Test
    void aWriteThatCannotBeRepeatedGetsTheAnswerOfAReplicaSlowerThanTheTimeoutOfOtherCalls() {
        // Slower than the service's timeout, faster than its timeout for calls that are not idempotent: a write that
        // is applied and answered late (a cold replica's first write) must be answered as applied, not as unknown.
        REPLICAS.forEach(replica -> replica.answerDelayMillis = 800);
        int before = servedTotal();

        assertThat(writes.write()).startsWith("port ");

        assertThat(servedTotal() - before).as("applied once").isEqualTo(1);
        assertThatThrownBy(writes::read).as("a read gives up at the timeout").isInstanceOf(RestClientException.class);
    }

    @Test
    void aCallThatFindsNoReplicaListedLooksAgainUntilTheSuccessorIsListed() throws Exception {
        // Both stand by: not ready, and every call refused with nothing applied.
        REPLICAS.forEach(r -> {
            r.readiness = 503;
            r.mode = ReplicaServer.Mode.NOT_APPLIED;
        });
        await().atMost(Duration.ofSeconds(20)).until(() -> listed("leader") == 0);
        int refusals = servedTotal();
        long started = System.nanoTime();

        var call = CompletableFuture.supplyAsync(() -> leader.write());
        ReplicaServer.sleep(300);
        assertThat(call).as("still waiting for a replica that serves").isNotDone();
        // The second one takes over.
        REPLICAS.get(1).mode = ReplicaServer.Mode.OK;
        REPLICAS.get(1).readiness = 200;

        assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo(port(1));
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("found within the pauses' 1.4 s")
                .isLessThan(Duration.ofMillis(3_000));
        assertThat(servedTotal() - refusals)
                .as("no call to a replica that said it is not ready")
                .isEqualTo(1);
    }

    @Test
    void aCallThatFindsNoReplicaListedGivesUpAfterItsPauses() {
        REPLICAS.forEach(r -> r.readiness = 503);
        await().atMost(Duration.ofSeconds(20)).until(() -> listed("leader") == 0);

        long started = System.nanoTime();
        assertThatThrownBy(leader::write).hasMessageContaining("serviceId: leader");

        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("14 pauses of 100 ms")
                .isBetween(Duration.ofMillis(1_400), Duration.ofMillis(5_000));
        assertThat(CAUSES).as("every attempt's").hasSize(15).containsOnly("connect");
    }

    @Test
    void everyCounterOfAClientIsRegisteredBeforeItsFirstCall() {
        for (String name : List.of("agora.client.calls.rejected", "agora.client.pool.timeouts")) {
            assertThat(meters.find(name).tag("service", "idle").counter())
                    .as(name)
                    .isNotNull()
                    .satisfies(counter -> assertThat(counter.count()).isZero());
        }
    }
}
