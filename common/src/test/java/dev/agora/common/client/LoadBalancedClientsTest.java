package dev.agora.common.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.agora.common.CommonTestApplication;
import dev.agora.common.security.testing.TestIssuer;
import io.github.resilience4j.bulkhead.BulkheadFullException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory;
import org.springframework.cloud.client.loadbalancer.LoadBalanced;
import org.springframework.cloud.loadbalancer.support.LoadBalancerClientFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Scope;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;
import org.springframework.web.service.annotation.GetExchange;
import reactor.core.publisher.Mono;

/**
 * Replica calls on Spring Cloud's own terms ({@link LoadBalancedClients}: a {@code @LoadBalanced} RestClient, an
 * {@code @HttpExchange} interface, Spring Cloud LoadBalancer's health checks and retry, {@link ReplicaBreakers}, Spring
 * Cloud CircuitBreaker's bulkhead) against real HTTP replicas on loopback ({@link ReplicaServer}s) whose behaviour each
 * test sets, and an address where nothing listens. Every call here may be repeated, as the order service's are.
 */
@SpringBootTest(
        classes = {CommonTestApplication.class, LoadBalancedClientsTest.Clients.class},
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = {
            "spring.profiles.active=local",
            "spring.cloud.loadbalancer.health-check.interval=200ms",
            // Health checks that will not notice a killed replica during a test: its breaker has to.
            "spring.cloud.loadbalancer.clients.ejecting.health-check.interval=30s",
            "spring.cloud.loadbalancer.retry.retry-on-all-operations=true",
            "spring.cloud.loadbalancer.retry.max-retries-on-next-service-instance=2",
            "spring.cloud.loadbalancer.retry.retryable-status-codes=500,502,503,504",
            "spring.cloud.circuitbreaker.resilience4j.disable-thread-pool=true",
            "spring.cloud.circuitbreaker.resilience4j.enable-semaphore-default-bulkhead=true",
            "agora.clients.items.timeout=1s",
            "agora.clients.ejecting.timeout=1s",
            "agora.clients.narrow.timeout=3s",
            "agora.clients.narrow.max-concurrent-calls=2"
        })
class LoadBalancedClientsTest {

    private static final TestIssuer ISSUER = new TestIssuer();
    private static final List<ReplicaServer> REPLICAS = List.of(new ReplicaServer(), new ReplicaServer());
    private static final String DEAD = "http://127.0.0.1:" + unusedPort();

    interface Items {
        @GetExchange("/item")
        String item();
    }

    @Configuration(proxyBeanMethods = false)
    @Import(LoadBalancedClients.class)
    static class Clients {

        @Bean
        @LoadBalanced
        @Scope("prototype")
        RestClient.Builder items(LoadBalancedClients clients) {
            return clients.builder("items");
        }

        @Bean
        @LoadBalanced
        @Scope("prototype")
        RestClient.Builder ejecting(LoadBalancedClients clients) {
            return clients.builder("ejecting");
        }

        @Bean
        @LoadBalanced
        @Scope("prototype")
        RestClient.Builder narrow(LoadBalancedClients clients) {
            return clients.builder("narrow");
        }

        @Bean
        Items itemsClient(LoadBalancedClients clients, @Qualifier("items") RestClient.Builder builder) {
            return clients.client("items", builder, Items.class);
        }

        @Bean
        Items ejectingClient(LoadBalancedClients clients, @Qualifier("ejecting") RestClient.Builder builder) {
            return clients.client("ejecting", builder, Items.class);
        }

        @Bean
        Items narrowClient(LoadBalancedClients clients, @Qualifier("narrow") RestClient.Builder builder) {
            return clients.client("narrow", builder, Items.class);
        }
    }

    @DynamicPropertySource
    static void replicas(DynamicPropertyRegistry registry) {
        registry.add("agora.security.authorities", ISSUER::url);
        for (String service : List.of("items", "ejecting", "narrow")) ReplicaServer.list(registry, service, REPLICAS);
        registry.add("spring.cloud.discovery.client.simple.instances.items[2].uri", () -> DEAD);
    }

    @AfterAll
    static void stop() {
        REPLICAS.forEach(ReplicaServer::stop);
        ISSUER.close();
    }

    @Autowired
    CircuitBreakerRegistry breakers;

    @Autowired
    @Qualifier("itemsClient")
    Items items;

    @Autowired
    @Qualifier("ejectingClient")
    Items ejecting;

    @Autowired
    @Qualifier("narrowClient")
    Items narrow;

    @Autowired
    CircuitBreakerFactory<?, ?> circuitBreakers;

    @Autowired
    LoadBalancerClientFactory loadBalancers;

    @Autowired
    MeterRegistry meters;

    @BeforeEach
    void everyReplicaHealthyAndClosed() {
        REPLICAS.forEach(ReplicaServer::reset);
        for (String service : List.of("items", "ejecting", "narrow")) {
            for (ReplicaServer replica : REPLICAS) breaker(service, replica).reset();
        }
        // Both replicas listed and the dead address not (its probe answers nothing): the state the tests start from.
        await().atMost(Duration.ofSeconds(20))
                .until(() -> everyReplicaListed("items") && listed("items").size() == REPLICAS.size());
    }

    private CircuitBreaker breaker(String service, ReplicaServer replica) {
        return replica.breaker(breakers, service);
    }

    /** Whether the load balancer's health-checked list of {@code service} holds every live replica. */
    private boolean everyReplicaListed(String service) {
        var ports = listed(service).stream().map(ServiceInstance::getPort).toList();
        return REPLICAS.stream().allMatch(r -> ports.contains(r.port));
    }

    /** Whether the health-checked list of {@code service} holds none of the live replicas. */
    private boolean noReplicaListed(String service) {
        return listed(service).stream()
                .noneMatch(instance -> REPLICAS.stream().anyMatch(r -> r.port == instance.getPort()));
    }

    private List<ServiceInstance> listed(String service) {
        var supplier = loadBalancers.getInstance(
                service, org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier.class);
        List<ServiceInstance> listed = Mono.from(supplier.get()).block(Duration.ofSeconds(5));
        return listed == null ? List.of() : listed;
    }

    private int servedTotal() {
        return REPLICAS.stream().mapToInt(r -> r.served.get()).sum();
    }

    private static String port(int replica) {
        return "port " + REPLICAS.get(replica).port;
    }

    @Test
    void roundRobinSpreadsCallsOverTheHealthCheckedReplicasAndNeverTheDeadOne() {
        int first = REPLICAS.get(0).served.get();
        int second = REPLICAS.get(1).served.get();

        for (int i = 0; i < 20; i++) assertThat(items.item()).startsWith("port ");

        assertThat(REPLICAS.get(0).served.get() - first).isBetween(8, 12);
        assertThat(REPLICAS.get(1).served.get() - second).isBetween(8, 12);
    }

    @Test
    void aReplicaKilledBetweenHealthChecksIsEjectedAtItsFirstRefusedConnectionAndFailsNoCall() {
        // Both have answered, so both are in the list the 30 s health check made.
        await().atMost(Duration.ofSeconds(20)).until(() -> everyReplicaListed("ejecting"));
        REPLICAS.get(0).stop();
        int before = REPLICAS.get(1).served.get();

        for (int i = 0; i < 10; i++) assertThat(ejecting.item()).isEqualTo(port(1));

        assertThat(REPLICAS.get(1).served.get() - before).isEqualTo(10);
        CircuitBreaker killed = breaker("ejecting", REPLICAS.get(0));
        assertThat(killed.getState()).isEqualTo(CircuitBreaker.State.OPEN);
        assertThat(killed.getMetrics().getNumberOfNotPermittedCalls())
                .as("once ejected, the load balancer no longer chooses it")
                .isZero();
    }

    @Test
    void anEjectedReplicaIsBackInRotationOnceItsBreakersWaitIsOverAndItsTrialCallsSucceed() {
        CircuitBreaker ejected = breaker("items", REPLICAS.get(0));
        ejected.transitionToOpenState();
        int before = REPLICAS.get(0).served.get();

        // Two health intervals (400 ms) later it is half-open by itself, though the load balancer no longer offers it.
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(items.item()).startsWith("port ");
            assertThat(ejected.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
        });

        assertThat(REPLICAS.get(0).served.get() - before).isGreaterThanOrEqualTo(2);
    }

    @Test
    void aHangingReplicaIsLeftAfterOneTimeoutAndTheCallRepeatedElsewhere() {
        REPLICAS.get(0).mode = ReplicaServer.Mode.HANG;

        for (int i = 0; i < 4; i++) {
            long started = System.nanoTime();
            assertThat(items.item()).isEqualTo(port(1));
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(3_500));
        }
    }

    @Test
    void serverErrorsAreRepeatedElsewhereAndEjectTheReplicaAfterARun() {
        // A breaker's wait is two health intervals: 60 s here, so the ejection is still in force when looked at.
        await().atMost(Duration.ofSeconds(20)).until(() -> everyReplicaListed("ejecting"));
        REPLICAS.get(0).mode = ReplicaServer.Mode.ERROR;

        for (int i = 0; i < 20; i++) assertThat(ejecting.item()).isEqualTo(port(1));

        assertThat(breaker("ejecting", REPLICAS.get(0)).getState()).isEqualTo(CircuitBreaker.State.OPEN);
    }

    @Test
    void clientErrorsPassToTheCallerWithoutFailover() {
        REPLICAS.forEach(r -> r.mode = ReplicaServer.Mode.NOT_FOUND);
        int before = servedTotal();

        assertThatThrownBy(items::item).isInstanceOf(HttpClientErrorException.NotFound.class);
        assertThat(servedTotal() - before).isEqualTo(1);
    }

    @Test
    void withEveryBreakerOpenACallStillGoesToALiveReplica() {
        for (ReplicaServer replica : REPLICAS) breaker("items", replica).transitionToOpenState();
        int before = servedTotal();

        assertThat(items.item()).startsWith("port ");

        assertThat(servedTotal() - before).isEqualTo(1);
        for (ReplicaServer replica : REPLICAS) {
            assertThat(breaker("items", replica).getState())
                    .as("the last resort bypasses the breaker; it closes by its own trial calls")
                    .isNotEqualTo(CircuitBreaker.State.CLOSED);
        }
    }

    @Test
    void withNoReplicaReadyCallsEndAtOnce() {
        REPLICAS.forEach(r -> r.readiness = 503);
        // Both answer "not ready": left out. The dead address answers nothing, which may be a starved machine's late
        // probe: offered while its breaker is closed, it is ejected at its first refused connection.
        // Wait for both to be gone, not for a count: one replica left out and the dead address ejected also make one.
        await().atMost(Duration.ofSeconds(20)).until(() -> noReplicaListed("items"));
        int before = servedTotal();

        long started = System.nanoTime();
        assertThatThrownBy(items::item)
                .as("the load balancer has no instance to offer")
                .hasMessageContaining("serviceId: items");

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(500));
        assertThat(servedTotal()).isEqualTo(before);
    }

    @Test
    void callsBeyondTheBulkheadAreRefusedAtOnce() {
        REPLICAS.forEach(r -> r.mode = ReplicaServer.Mode.HANG);
        var calls = circuitBreakers.create("narrow");
        double rejectedBefore = meters.counter("agora.client.calls.rejected", "service", "narrow")
                .count();
        List<CompletableFuture<String>> hanging = new ArrayList<>();
        var callers = Executors.newFixedThreadPool(2);
        for (int i = 0; i < 2; i++) {
            hanging.add(CompletableFuture.supplyAsync(() -> calls.run(narrow::item, failed -> "failed"), callers));
        }
        await().atMost(Duration.ofSeconds(5))
                .until(() -> meters.get("resilience4j.bulkhead.available.concurrent.calls")
                                .tag("name", "narrow")
                                .gauge()
                                .value()
                        == 0);

        AtomicReference<Throwable> refusal = new AtomicReference<>();
        long started = System.nanoTime();
        assertThat(calls.run(narrow::item, failed -> {
                    refusal.set(failed);
                    return "refused";
                }))
                .isEqualTo("refused");

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(500));
        assertThat(refusal.get()).isInstanceOf(BulkheadFullException.class);
        assertThat(meters.counter("agora.client.calls.rejected", "service", "narrow")
                        .count())
                .isEqualTo(rejectedBefore + 1);
        REPLICAS.forEach(r -> r.mode = ReplicaServer.Mode.OK);
        hanging.forEach(CompletableFuture::join);
        callers.shutdownNow();
    }

    private static int unusedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
