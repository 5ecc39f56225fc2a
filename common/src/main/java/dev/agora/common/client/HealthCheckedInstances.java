package dev.agora.common.client;

import io.github.resilience4j.circuitbreaker.CircuitBreaker.State;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.loadbalancer.core.DelegatingServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.core.HealthCheckServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.support.LoadBalancerClientFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Each called service's instance list, in its load-balancer context: the replicas discovery knows whose readiness probe
 * passed in the latest round ({@code spring.cloud.loadbalancer[.clients.<id>].health-check.*}), less those their
 * breakers ejected ({@link #admitted}), and for a repeated attempt not the replica that failed while another is left.
 */
public class HealthCheckedInstances {

    static Duration interval(LoadBalancerClientFactory loadBalancers, String serviceId) {
        return loadBalancers.getProperties(serviceId).getHealthCheck().getInterval();
    }

    /** Each probe bounded by the interval; closed (its pool's threads too) with the load-balancer context. */
    @Bean
    HttpComponentsClientHttpRequestFactory readinessProbeHttp(ConfigurableApplicationContext context, Environment env) {
        var loadBalancers = context.getBean(LoadBalancerClientFactory.class);
        var settings = new AgoraClients.Settings(
                interval(loadBalancers, env.getProperty(LoadBalancerClientFactory.PROPERTY_NAME)), 4, null);
        return new HttpComponentsClientHttpRequestFactory(LoadBalancedClients.pool("health-checks", settings, null));
    }

    @Bean
    Probes readinessProbes(HttpComponentsClientHttpRequestFactory http) {
        return new Probes(RestClient.builder().requestFactory(http).build(), ConcurrentHashMap.newKeySet());
    }

    /**
     * What {@code withBlockingHealthChecks} builds, with {@link Probes} and the breakers' filter ({@link #admitted}),
     * which overrides only {@code get()}: {@code get(Request)} defaults to it and no supplier below reads the request.
     */
    @Bean
    ServiceInstanceListSupplier replicaInstanceList(ConfigurableApplicationContext context, Probes probes) {
        ServiceInstanceListSupplier[] configured = new ServiceInstanceListSupplier[1];
        var breakers = context.getBean(CircuitBreakerRegistry.class);
        return ServiceInstanceListSupplier.builder()
                .withBlockingDiscoveryClient()
                .with((ignored, discovered) -> {
                    configured[0] = discovered;
                    return new HealthCheckServiceInstanceListSupplier(
                            discovered, context.getBean(LoadBalancerClientFactory.class), probes::alive);
                })
                .with((ignored, checked) -> new DelegatingServiceInstanceListSupplier(checked) {
                    @Override
                    public Flux<List<ServiceInstance>> get() {
                        return admitted(getDelegate().get(), breakers, getServiceId(), configured[0], probes);
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
            Probes probes) {
        return healthChecked.flatMap(checked -> {
            if (checked.isEmpty()) {
                return configured.get().take(1).map(known -> known.stream()
                        .filter(i -> ReplicaBreakers.state(breakers, serviceId, i) == State.CLOSED
                                && !probes.answeredNotReady().contains(i.getUri()))
                        .toList());
            }
            var closed = checked.stream()
                    .filter(i -> ReplicaBreakers.state(breakers, serviceId, i) != State.OPEN)
                    .toList();
            return Flux.just(closed.isEmpty() ? checked : closed);
        });
    }

    /**
     * The readiness probe, remembering which replicas answered "not ready": such a replica is alive and must get no
     * calls, while one that did not answer may be down or only slow on a starved machine.
     */
    record Probes(RestClient probes, Set<URI> answeredNotReady) {

        Mono<Boolean> alive(ServiceInstance instance, String path) {
            return Mono.fromCallable(() -> {
                URI replica = instance.getUri();
                Integer status = null;
                try {
                    status = probes.get()
                            .uri(replica + (path.startsWith("/") ? path : "/" + path))
                            .exchange((request, response) ->
                                    response.getStatusCode().value());
                } catch (RuntimeException downOrSlow) {
                    // not known to be not ready
                }
                if (status == null || status == 200) answeredNotReady.remove(replica);
                else answeredNotReady.add(replica);
                return status != null && status == 200;
            });
        }
    }
}
