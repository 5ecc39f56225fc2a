package dev.agora.common.client;

import dev.agora.common.web.RequestIds;
import dev.agora.common.web.WritingFrontend;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker.State;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.httpcomponents.hc5.PoolingHttpClientConnectionManagerMetricsBinder;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.support.LoadBalancerClientFactory;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.support.RestClientAdapter;
import org.springframework.web.service.invoker.HttpServiceProxyFactory;
import reactor.core.publisher.Mono;

/**
 * Calls to replicated services (common/README.md, "Replica calls"): a caller imports this bean, declares a
 * {@code @LoadBalanced RestClient.Builder} per called service from {@link #builder} and an {@code @HttpExchange}
 * interface on it from {@link #client}, and runs each call through Spring Cloud CircuitBreaker for its bulkhead.
 */
public class LoadBalancedClients implements DisposableBean {

    private final AgoraClients settings;
    private final CircuitBreakerRegistry breakers;
    private final BulkheadRegistry bulkheads;
    private final MeterRegistry meters;
    private final ObjectProvider<RestClientCustomizer> customizers;
    private final ObjectProvider<LoadBalancerClientFactory> loadBalancers;
    private final Map<String, ReplicaBreakers> replicaBreakers = new ConcurrentHashMap<>();
    private final Map<String, CloseableHttpClient> pools = new ConcurrentHashMap<>();

    public LoadBalancedClients(
            AgoraClients settings,
            CircuitBreakerRegistry breakers,
            BulkheadRegistry bulkheads,
            MeterRegistry meters,
            ObjectProvider<RestClientCustomizer> customizers,
            ObjectProvider<LoadBalancerClientFactory> loadBalancers) {
        this.settings = settings;
        this.breakers = breakers;
        this.bulkheads = bulkheads;
        this.meters = meters;
        this.customizers = customizers;
        this.loadBalancers = loadBalancers;
    }

    /** The builder of {@code serviceId}'s {@code @LoadBalanced} bean; sets up its breakers, bulkhead and metrics. */
    public RestClient.Builder builder(String serviceId) {
        CloseableHttpClient http = pools.computeIfAbsent(serviceId, this::setUp);
        RestClient.Builder builder = RestClient.builder();
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        return builder.baseUrl("http://" + serviceId)
                .requestFactory(new HttpComponentsClientHttpRequestFactory(http))
                .requestInterceptor(RequestIds.propagatingInterceptor())
                .requestInterceptor(WritingFrontend.propagatingInterceptor());
    }

    private CloseableHttpClient setUp(String serviceId) {
        AgoraClients.Settings own = settings.of(serviceId);
        var interval = loadBalancers
                .getObject()
                .getProperties(serviceId)
                .getHealthCheck()
                .getInterval();
        var poolTimeouts = meters.counter("agora.client.pool.timeouts", "service", serviceId);
        replicaBreakers.put(serviceId, new ReplicaBreakers(serviceId, breakers, own, interval, poolTimeouts));
        breakers.circuitBreaker(serviceId, serviceId).transitionToDisabledState();
        var bulkhead = BulkheadConfig.custom()
                .maxConcurrentCalls(own.maxConcurrentCalls())
                .maxWaitDuration(Duration.ZERO);
        bulkheads.addConfiguration(serviceId, bulkhead.build());
        Gauge.builder("agora.client.instances.admitted", () -> admitted(serviceId))
                .tag("service", serviceId)
                .register(meters);
        var rejected = meters.counter("agora.client.calls.rejected", "service", serviceId);
        bulkheads.bulkhead(serviceId, serviceId).getEventPublisher().onCallRejected(refused -> rejected.increment());
        return pool(serviceId, own, meters);
    }

    /** The client of {@code serviceId} on its load-balanced builder, each attempt through its replica's breaker. */
    public RestClient restClient(String serviceId, RestClient.Builder loadBalanced) {
        return loadBalanced.requestInterceptor(replicaBreakers.get(serviceId)).build();
    }

    public <T> T client(String serviceId, RestClient.Builder loadBalanced, Class<T> api) {
        return HttpServiceProxyFactory.builderFor(RestClientAdapter.create(restClient(serviceId, loadBalanced)))
                .build()
                .createClient(api);
    }

    /** Apache HttpClient 5, the fastest RestClient backend measured here; the load balancer retries, not it. */
    private static CloseableHttpClient pool(String name, AgoraClients.Settings settings, MeterRegistry meters) {
        Timeout answer = Timeout.of(settings.timeout());
        var pool = PoolingHttpClientConnectionManagerBuilder.create()
                .setMaxConnPerRoute(settings.maxConcurrentCalls())
                .setMaxConnTotal(settings.maxConcurrentCalls() * 2)
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(AgoraClients.CONNECT_TIMEOUT))
                        .setSocketTimeout(answer)
                        // The replica behind an idle connection may have restarted: a dead one would count as failing.
                        .setValidateAfterInactivity(TimeValue.ofSeconds(1))
                        .build())
                .build();
        new PoolingHttpClientConnectionManagerMetricsBinder(pool, name).bindTo(meters);
        var client = HttpClients.custom()
                .setConnectionManager(pool)
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setResponseTimeout(answer)
                        .setConnectionRequestTimeout(answer)
                        .build())
                .disableAutomaticRetries()
                .disableCookieManagement()
                .evictIdleConnections(TimeValue.ofSeconds(30));
        if (!settings.notIdempotentTimeout().equals(settings.timeout())) {
            // Apache's interceptor runs before the response timeout is applied, and sees the headers Spring's does not.
            Timeout longer = Timeout.of(settings.notIdempotentTimeout());
            client.addRequestInterceptorFirst((request, entity, context) -> {
                if (ReplicaRetries.idempotent(request.getMethod(), request.containsHeader(ReplicaRetries.KEY))) return;
                HttpClientContext exchange = HttpClientContext.castOrCreate(context);
                exchange.setRequestConfig(RequestConfig.copy(exchange.getRequestConfigOrDefault())
                        .setResponseTimeout(longer)
                        .build());
            });
        }
        return client.build();
    }

    /** Replicas offered now whose breaker is not open (the list's last resort offers open ones). */
    private long admitted(String serviceId) {
        var listed = loadBalancers.getObject().getInstance(serviceId, ServiceInstanceListSupplier.class);
        var now = Mono.from(listed.get()).onErrorComplete().block(Duration.ofSeconds(1));
        if (now == null) return 0;
        return now.stream()
                .filter(i -> ReplicaBreakers.state(breakers, serviceId, i) != State.OPEN)
                .count();
    }

    @Override
    public void destroy() throws IOException {
        for (CloseableHttpClient pool : pools.values()) pool.close();
    }
}
