package dev.agora.common.client;

import java.time.Duration;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.cloud.loadbalancer.core.HealthCheckServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.support.LoadBalancerClientFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * Spring Cloud LoadBalancer's instance list for every service called through {@link ReplicaClients}: the replicas
 * discovery knows ({@code agora.instances.*}), of those the ones whose readiness check passed in the latest round
 * ({@code spring.cloud.loadbalancer.health-check.*}: {@code /readyz} every 500 ms by default, each probe bounded by the
 * interval; a service may have an interval of its own, {@code spring.cloud.loadbalancer.clients.<id>.health-check.*}),
 * without the replicas whose breaker ejected them for calls through {@link LoadBalancedClients} ({@link ReplicaBreakers}),
 * and, for an attempt that repeats a failed one, not the replica that failed while another is left. The load balancer
 * itself is Spring Cloud's round robin. The probes remember which replicas answered "not ready"
 * ({@link ReadinessProbes}), for the calls' last resort when the list is empty. Lives in each service's load-balancer
 * context, which closes the probes' connection pool with it.
 */
public class HealthCheckedInstances {

    @Bean(destroyMethod = "close")
    CloseableHttpClient healthCheckHttpClient(Environment environment) {
        Duration interval = healthInterval(environment);
        Duration connect = interval.compareTo(Duration.ofMillis(200)) < 0 ? interval : Duration.ofMillis(200);
        return PooledHttpClients.build("health-checks", connect, interval, 4, null);
    }

    /** The health-check interval of the service whose load-balancer context {@code environment} is. */
    static Duration healthInterval(Environment environment) {
        return healthInterval(environment, environment.getProperty("loadbalancer.client.name"));
    }

    /**
     * {@code spring.cloud.loadbalancer.clients.<serviceId>.health-check.interval} when set, as Spring Cloud's
     * per-client properties override the global ones, else {@code spring.cloud.loadbalancer.health-check.interval}.
     */
    static Duration healthInterval(Environment environment, String serviceId) {
        Binder binder = Binder.get(environment);
        Duration global = binder.bind("spring.cloud.loadbalancer.health-check.interval", Duration.class)
                .orElse(Duration.ofMillis(500));
        if (serviceId == null) return global;
        return binder.bind("spring.cloud.loadbalancer.clients." + serviceId + ".health-check.interval", Duration.class)
                .orElse(global);
    }

    @Bean
    ReadinessProbes readinessProbes(CloseableHttpClient healthCheckHttpClient) {
        return new ReadinessProbes(RestClient.builder()
                .requestFactory(new HttpComponentsClientHttpRequestFactory(healthCheckHttpClient))
                .build());
    }

    /**
     * What {@code withBlockingHealthChecks} builds, with a probe that also remembers which replicas answered "not
     * ready" ({@link ReadinessProbes}).
     */
    @Bean
    ServiceInstanceListSupplier replicaInstanceList(ConfigurableApplicationContext context, ReadinessProbes probes) {
        ServiceInstanceListSupplier[] configured = new ServiceInstanceListSupplier[1];
        return ServiceInstanceListSupplier.builder()
                .withBlockingDiscoveryClient()
                .with((ignored, discovered) -> {
                    configured[0] = discovered;
                    return new HealthCheckServiceInstanceListSupplier(
                            discovered, context.getBean(LoadBalancerClientFactory.class), probes::alive);
                })
                .with((ignored, healthChecked) -> {
                    var clients = BeanFactoryUtils.beansOfTypeIncludingAncestors(context, LoadBalancedClients.class);
                    return clients.isEmpty()
                            ? healthChecked
                            : new ReplicaBreakers.Admitted(
                                    healthChecked,
                                    configured[0],
                                    probes::answeredNotReady,
                                    clients.values().iterator().next());
                })
                .withRetryAwareness()
                .build(context);
    }
}
