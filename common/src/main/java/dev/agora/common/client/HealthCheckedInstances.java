package dev.agora.common.client;

import io.github.resilience4j.circuitbreaker.CircuitBreaker.State;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.loadbalancer.core.DelegatingServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.support.LoadBalancerClientFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import reactor.core.publisher.Flux;

/**
 * Each called service's instance list, in its load-balancer context: the replicas discovery knows whose readiness probe
 * passed in the latest round ({@code spring.cloud.loadbalancer[.clients.<id>].health-check.*}), less those their
 * breakers ejected ({@link #admitted}), and for a repeated attempt not the replica that failed while another is left.
 */
public class HealthCheckedInstances {

    /**
     * What {@code withBlockingHealthChecks} builds on a probe client that notes which replicas answered "not ready"
     * (by {@code host:port}), and the breakers' filter ({@link #admitted}), which overrides only {@code get()}:
     * {@code get(Request)} defaults to it and no supplier below reads the request.
     */
    @Bean
    ServiceInstanceListSupplier replicaInstanceList(ConfigurableApplicationContext context, Environment env) {
        var http = new SimpleClientHttpRequestFactory();
        http.setConnectTimeout(AgoraClients.CONNECT_TIMEOUT);
        var serviceId = env.getProperty(LoadBalancerClientFactory.PROPERTY_NAME);
        var loadBalancing = context.getBean(LoadBalancerClientFactory.class).getProperties(serviceId);
        http.setReadTimeout(loadBalancing.getHealthCheck().getInterval());
        Set<String> answeredNotReady = ConcurrentHashMap.newKeySet();
        var probes = RestClient.builder()
                .requestFactory(http)
                .requestInterceptor((request, body, execution) -> {
                    String replica = request.getURI().getRawAuthority();
                    try {
                        var response = execution.execute(request, body);
                        if (response.getStatusCode().value() == 200) answeredNotReady.remove(replica);
                        else answeredNotReady.add(replica);
                        return response;
                    } catch (IOException downOrSlow) {
                        answeredNotReady.remove(replica); // not known to be not ready
                        throw downOrSlow;
                    }
                })
                .build();
        var breakers = context.getBean(CircuitBreakerRegistry.class);
        return ServiceInstanceListSupplier.builder()
                .withBlockingDiscoveryClient()
                .withBlockingHealthChecks(probes)
                .with((ignored, checked) -> new DelegatingServiceInstanceListSupplier(checked) {
                    @Override
                    public Flux<List<ServiceInstance>> get() {
                        var configured = ((DelegatingServiceInstanceListSupplier) checked).getDelegate();
                        return admitted(getDelegate().get(), breakers, getServiceId(), configured, answeredNotReady);
                    }
                })
                .withRetryAwareness()
                .build(context);
    }

    /**
     * The health-checked replicas whose breaker is not open, or all of them when every one is (Envoy's panic mode: a
     * breaker steers calls, it never answers one); when none passed its health check, the configured ones whose
     * breaker is closed and that did not answer "not ready" (a probe may be late on a starved machine), which a replica
     * that is down leaves at its first refused connection or after a run of timeouts.
     */
    static Flux<List<ServiceInstance>> admitted(
            Flux<List<ServiceInstance>> healthChecked,
            CircuitBreakerRegistry breakers,
            String serviceId,
            ServiceInstanceListSupplier configured,
            Set<String> answeredNotReady) {
        return healthChecked.flatMap(checked -> {
            if (checked.isEmpty()) {
                return configured.get().take(1).map(known -> known.stream()
                        .filter(i -> ReplicaBreakers.state(breakers, serviceId, i) == State.CLOSED
                                && !answeredNotReady.contains(i.getHost() + ":" + i.getPort()))
                        .toList());
            }
            var closed = checked.stream()
                    .filter(i -> ReplicaBreakers.state(breakers, serviceId, i) != State.OPEN)
                    .toList();
            return Flux.just(closed.isEmpty() ? checked : closed);
        });
    }
}
