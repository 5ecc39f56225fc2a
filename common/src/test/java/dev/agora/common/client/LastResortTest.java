package dev.agora.common.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.agora.common.CommonTestApplication;
import dev.agora.common.security.testing.TestIssuer;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.loadbalancer.LoadBalanced;
import org.springframework.cloud.loadbalancer.core.DelegatingServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.core.HealthCheckServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.support.LoadBalancerClientFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Scope;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.annotation.PostExchange;
import reactor.core.publisher.Mono;

/**
 * The last resort of replica calls (Envoy's panic mode), through the real stack against real HTTP replicas on
 * loopback that can be stopped and started again on their port: a call is answered by a replica that is up even when
 * its breaker refuses (open, or half-open with its trial permissions taken) or when every readiness probe goes
 * unanswered; a call ends at once only when no replica is up by either signal. The replicas are {@link ReplicaServer}s.
 */
@SpringBootTest(
        classes = {CommonTestApplication.class, LastResortTest.Clients.class},
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = {
            "spring.profiles.active=local",
            // breakers stay open for two intervals (1 s): long enough for a call made right after opening one
            "spring.cloud.loadbalancer.health-check.interval=500ms",
            "spring.cloud.loadbalancer.retry.max-retries-on-next-service-instance=2",
            "spring.cloud.circuitbreaker.resilience4j.disable-thread-pool=true",
            "agora.clients.plain.timeout=1s"
        })
class LastResortTest {

    private static final TestIssuer ISSUER = new TestIssuer();
    private static final ReplicaServer FIRST = new ReplicaServer();
    private static final ReplicaServer SECOND = new ReplicaServer();

    interface Items {
        @GetExchange("/item")
        String read();

        @PostExchange("/item")
        String write();
    }

    @Configuration(proxyBeanMethods = false)
    @Import(LoadBalancedClients.class)
    static class Clients {

        @Bean
        @LoadBalanced
        @Scope("prototype")
        RestClient.Builder plain(LoadBalancedClients clients) {
            return clients.builder("plain");
        }

        @Bean
        Items items(LoadBalancedClients clients, RestClient.Builder plain) {
            return clients.client("plain", plain, Items.class);
        }
    }

    @DynamicPropertySource
    static void replicas(DynamicPropertyRegistry registry) {
        registry.add("agora.security.authorities", ISSUER::url);
        ReplicaServer.list(registry, "plain", List.of(FIRST, SECOND));
    }

    @AfterAll
    static void stopAll() {
        FIRST.stop();
        SECOND.stop();
        ISSUER.close();
    }

    @Autowired
    CircuitBreakerRegistry breakers;

    @Autowired
    LoadBalancerClientFactory loadBalancers;

    @Autowired
    Items items;

    @BeforeEach
    void bothReplicasUpAndListed() {
        for (ReplicaServer replica : List.of(FIRST, SECOND)) {
            replica.reset();
            breaker(replica).reset();
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> listed().size() == 2);
    }

    private CircuitBreaker breaker(ReplicaServer replica) {
        return replica.breaker(breakers, "plain");
    }

    /** The load balancer's list: where calls may go now. */
    private List<URI> listed() {
        return uris(loadBalancers.getInstance("plain", ServiceInstanceListSupplier.class));
    }

    /** The replicas whose readiness probe passed in the latest round, before the breakers' filter. */
    private List<URI> healthChecked() {
        ServiceInstanceListSupplier supplier = loadBalancers.getInstance("plain", ServiceInstanceListSupplier.class);
        while (!(supplier instanceof HealthCheckServiceInstanceListSupplier)) {
            supplier = ((DelegatingServiceInstanceListSupplier) supplier).getDelegate();
        }
        return uris(supplier);
    }

    private static List<URI> uris(ServiceInstanceListSupplier supplier) {
        List<ServiceInstance> now = Mono.from(supplier.get()).block(Duration.ofSeconds(5));
        return now == null
                ? List.of()
                : now.stream().map(ServiceInstance::getUri).toList();
    }

    /** The first replica is stopped and out of the health-checked list: the second is the only one. */
    private void onlySecondListed() {
        FIRST.stop();
        await().atMost(Duration.ofSeconds(20)).until(() -> healthChecked().equals(List.of(SECOND.uri())));
    }

    @Test
    void theOnlyLiveReplicaServesCallsWhileItsBreakerIsOpen() {
        onlySecondListed();

        for (var call : List.<java.util.function.Supplier<String>>of(items::read, items::write)) {
            CircuitBreaker breaker = breaker(SECOND);
            breaker.transitionToOpenState();
            assertThat(listed()).containsExactly(SECOND.uri());
            int served = SECOND.served.get();

            assertThat(call.get()).isEqualTo(SECOND.answer());

            assertThat(SECOND.served.get() - served).isEqualTo(1);
            assertThat(breaker.getState())
                    .as("the last resort bypasses the breaker; it closes by its own trial calls")
                    .isEqualTo(CircuitBreaker.State.OPEN);
        }
    }

    @Test
    void aLeakedHalfOpenPermitNeitherRefusesCallsNorKeepsTheBreakerHalfOpen() {
        onlySecondListed();
        CircuitBreaker breaker = breaker(SECOND);
        breaker.transitionToOpenState();
        breaker.transitionToHalfOpenState();
        // Two trial permissions taken and never recorded or released: the leak the breaker must survive.
        assertThat(breaker.tryAcquirePermission()).isTrue();
        assertThat(breaker.tryAcquirePermission()).isTrue();
        assertThat(breaker.tryAcquirePermission()).isFalse();
        long leaked = System.nanoTime();

        assertThat(items.read()).isEqualTo(SECOND.answer());

        // Its longest trial call: a connection's wait and the answer's (1 s each), and a second.
        Duration maxHalfOpen = Duration.ofSeconds(3);
        await().atMost(maxHalfOpen.plusSeconds(3)).until(() -> breaker.getState() != CircuitBreaker.State.HALF_OPEN);
        assertThat(Duration.ofNanos(System.nanoTime() - leaked))
                .as("half-open for its maximum wait, no shorter")
                .isGreaterThanOrEqualTo(maxHalfOpen.minusMillis(100));
        // From open it goes half-open with fresh trial permissions, and closes when they succeed.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(items.read()).isEqualTo(SECOND.answer());
            assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
        });
    }

    @Test
    void withEveryReadinessProbeUnansweredCallsStillGoToAReplica() {
        // Probes are bounded by the health interval (500 ms): these go unanswered, as on a starved machine.
        FIRST.readinessDelayMillis = 1_500;
        SECOND.readinessDelayMillis = 1_500;
        await().atMost(Duration.ofSeconds(20)).until(() -> healthChecked().isEmpty());
        assertThat(listed()).containsExactlyInAnyOrder(FIRST.uri(), SECOND.uri());
        int served = FIRST.served.get() + SECOND.served.get();

        for (int i = 0; i < 4; i++) assertThat(items.write()).startsWith("port ");

        assertThat(FIRST.served.get() + SECOND.served.get() - served).isEqualTo(4);
    }

    @Test
    void whenTheHealthCheckAndTheBreakersAllCallTheReplicasDownCallsEndAtOnce() {
        FIRST.readinessDelayMillis = 1_500;
        SECOND.readinessDelayMillis = 1_500;
        await().atMost(Duration.ofSeconds(20)).until(() -> healthChecked().isEmpty());
        for (ReplicaServer replica : List.of(FIRST, SECOND)) breaker(replica).transitionToOpenState();
        assertThat(listed()).isEmpty();
        int served = FIRST.served.get() + SECOND.served.get();

        long started = System.nanoTime();
        assertThatThrownBy(items::read).hasMessageContaining("serviceId: plain");

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(500));
        assertThat(FIRST.served.get() + SECOND.served.get()).isEqualTo(served);
    }

    @Test
    void aKilledAndRestartedReplicaIsBackInRotationAndNoCallFailsMeanwhile() throws Exception {
        Queue<String> failures = new ConcurrentLinkedQueue<>();
        AtomicInteger calls = new AtomicInteger();
        AtomicBoolean running = new AtomicBoolean(true);
        Thread caller = Thread.ofPlatform().name("last-resort-caller").start(() -> {
            while (running.get()) {
                try {
                    assertThat(items.read()).startsWith("port ");
                    calls.incrementAndGet();
                } catch (RuntimeException | AssertionError failed) {
                    failures.add(failed.toString());
                }
                ReplicaServer.sleep(5);
            }
        });
        try {
            ReplicaServer.sleep(300);
            onlySecondListed();
            // The live replica's breaker opens too, as when it timed out on a starved machine while the killed one
            // was being left out.
            breaker(SECOND).transitionToOpenState();
            ReplicaServer.sleep(1_500);
            FIRST.restart();
            int servedAtRestart = FIRST.served.get();

            await().atMost(Duration.ofSeconds(20)).until(() -> FIRST.served.get() > servedAtRestart + 10);
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> breaker(FIRST).getState() == CircuitBreaker.State.CLOSED);
        } finally {
            running.set(false);
            caller.join(10_000);
        }

        assertThat(failures).as("calls that failed while a replica was up").isEmpty();
        assertThat(calls.get()).isGreaterThan(50);
        await().atMost(Duration.ofSeconds(20)).until(() -> listed().size() == 2);
    }
}
