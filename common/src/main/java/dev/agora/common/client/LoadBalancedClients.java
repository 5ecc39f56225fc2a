package dev.agora.common.client;

import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.core.env.Environment;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.support.RestClientAdapter;
import org.springframework.web.service.invoker.HttpServiceProxyFactory;

/**
 * Calls to replicated services on Spring Cloud's own terms, for a service that imports this bean
 * ({@code @Import(LoadBalancedClients.class)}; it then has no {@link ReplicaClients}). A caller declares a
 * {@code @LoadBalanced RestClient.Builder} bean from {@link #builder} and a typed {@code @HttpExchange} interface
 * from {@link #client}:
 *
 * <ul>
 *   <li>Spring Cloud LoadBalancer chooses each attempt's replica, round robin over the health-checked list
 *       ({@link HealthCheckedInstances}), and repeats a failed attempt on another replica
 *       ({@code spring.cloud.loadbalancer.retry.*}, on spring-retry): which calls may be repeated is said there;
 *   <li>{@link ReplicaBreakers} eject a failing replica and keep the load balancer from choosing it;
 *   <li>the caller runs each call through Spring Cloud CircuitBreaker ({@code CircuitBreakerFactory.create(id)}):
 *       the service's Resilience4j bulkhead ({@code max-concurrent-calls}, more are refused at once) and its
 *       fallback, on the caller's thread ({@code spring.cloud.circuitbreaker.resilience4j.disable-thread-pool}); the
 *       service's own breaker there is disabled, as only the replicas' breakers may keep calls from a replica;
 *   <li>each attempt is bounded by the HTTP client's timeouts ({@code agora.clients.<id>.timeout},
 *       {@code connect-timeout}), so a call by the attempts Spring Cloud allows; Apache HttpClient 5's pool
 *       ({@link PooledHttpClients}) is shared by all calls to the service.
 * </ul>
 */
public class LoadBalancedClients implements DisposableBean {

    private final AgoraClients settings;
    private final CircuitBreakerRegistry breakers;
    private final BulkheadRegistry bulkheads;
    private final MeterRegistry meters;
    private final Environment environment;
    private final ObjectProvider<RestClientCustomizer> customizers;
    private final Map<String, ReplicaBreakers> replicaBreakers = new ConcurrentHashMap<>();
    private final Map<String, CloseableHttpClient> pools = new ConcurrentHashMap<>();

    public LoadBalancedClients(
            AgoraClients settings,
            CircuitBreakerRegistry breakers,
            BulkheadRegistry bulkheads,
            MeterRegistry meters,
            Environment environment,
            ObjectProvider<RestClientCustomizer> customizers) {
        this.settings = settings;
        this.breakers = breakers;
        this.bulkheads = bulkheads;
        this.meters = meters;
        this.environment = environment;
        this.customizers = customizers;
    }

    /**
     * What a {@code @LoadBalanced RestClient.Builder} bean of {@code serviceId} returns: Spring Boot's customizers
     * (observation: each call is a span of the caller's trace, and its attempts carry the trace context), base URL {@code http://<serviceId>}, the pooled
     * HTTP client with the service's timeouts, and the request id, writing frontend and {@code Server-Timing} passed
     * on. Also sets up the service's breakers and bulkhead, so their metrics are there before the first call.
     */
    public RestClient.Builder builder(String serviceId) {
        CloseableHttpClient http = pools.computeIfAbsent(serviceId, this::setUp);
        RestClient.Builder builder = RestClient.builder();
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        return ReplicaClients.passingOn(builder.baseUrl("http://" + serviceId)
                .requestFactory(new HttpComponentsClientHttpRequestFactory(http)));
    }

    /** The service's breakers, bulkhead and connection pool: made once, whatever number of builders are made. */
    private CloseableHttpClient setUp(String serviceId) {
        ClientSettings own = settings.of(serviceId);
        // Half-open as soon as the wait is over, not at the next permission asked: the load balancer no longer offers
        // an ejected replica, so nothing would ask.
        var breakerConfig = CircuitBreakerConfig.from(ReplicaClients.breakerConfig(
                        own, HealthCheckedInstances.healthInterval(environment, serviceId)))
                .automaticTransitionFromOpenToHalfOpenEnabled(true)
                .build();
        replicaBreakers.put(serviceId, new ReplicaBreakers(serviceId, breakers, breakerConfig));
        // The service's own breaker, which Spring Cloud CircuitBreaker puts around each call, never refuses one: the
        // replicas' breakers eject what fails, and an open (or half-open) service breaker would refuse calls while a
        // replica is up (Envoy's panic mode, which no library here has).
        breakers.circuitBreaker(serviceId, serviceId).transitionToDisabledState();
        bulkheads.addConfiguration(serviceId, ReplicaClients.bulkheadConfig(own));
        var rejected = meters.counter("agora.client.calls.rejected", "service", serviceId);
        bulkheads.bulkhead(serviceId, serviceId).getEventPublisher().onCallRejected(refused -> rejected.increment());
        return PooledHttpClients.build(
                serviceId, own.connectTimeout(), own.timeout(), own.maxConcurrentCalls(), meters);
    }

    /**
     * The typed client of {@code serviceId} on its load-balanced builder, the replicas' breakers last: they see each
     * attempt after the load balancer chose its replica.
     */
    public <T> T client(String serviceId, RestClient.Builder loadBalanced, Class<T> api) {
        RestClient client =
                loadBalanced.requestInterceptor(replicaBreakers(serviceId)).build();
        return HttpServiceProxyFactory.builderFor(RestClientAdapter.create(client))
                .build()
                .createClient(api);
    }

    /** The replicas' breakers of {@code serviceId}; null when no client of it is built here. */
    ReplicaBreakers replicaBreakers(String serviceId) {
        return replicaBreakers.get(serviceId);
    }

    @Override
    public void destroy() throws IOException {
        for (CloseableHttpClient pool : pools.values()) pool.close();
    }
}
