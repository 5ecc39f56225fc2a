package dev.agora.order.catalog;

import java.time.Duration;
import java.util.List;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.cloud.loadbalancer.core.DelegatingServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import reactor.core.publisher.Flux;

/**
 * Load-balancer configuration of the catalog client (deliberately not a scanned {@code @Configuration}: it
 * belongs to the catalog client's own child context). Replicas come from simple discovery and are health
 * checked every {@code spring.cloud.loadbalancer.health-check.interval} with a blocking RestClient, so a dead
 * or frozen replica leaves the rotation within about a second and a restarted one rejoins as quickly; a
 * replica a call just failed to reach is skipped at once, and with no healthy replica left every discovered
 * one is tried ({@link UnreachableReplicas}).
 */
class CatalogLoadBalancing {

    @Bean
    ServiceInstanceListSupplier catalogInstances(
            ConfigurableApplicationContext context, UnreachableReplicas unreachable, DiscoveryClient discovery) {
        return ServiceInstanceListSupplier.builder()
                .withBlockingDiscoveryClient()
                .withBlockingHealthChecks(healthChecks())
                .with((ignored, healthy) -> new SkippingUnreachable(healthy, unreachable, discovery))
                .build(context);
    }

    private static RestClient healthChecks() {
        SimpleClientHttpRequestFactory requests = new SimpleClientHttpRequestFactory();
        requests.setConnectTimeout(Duration.ofMillis(250));
        // Up to the check interval: a frozen replica fails it, a busy one does not.
        requests.setReadTimeout(Duration.ofSeconds(1));
        return RestClient.builder().requestFactory(requests).build();
    }

    private static final class SkippingUnreachable extends DelegatingServiceInstanceListSupplier {

        private final UnreachableReplicas unreachable;
        private final DiscoveryClient discovery;

        SkippingUnreachable(
                ServiceInstanceListSupplier delegate, UnreachableReplicas unreachable, DiscoveryClient discovery) {
            super(delegate);
            this.unreachable = unreachable;
            this.discovery = discovery;
        }

        @Override
        public Flux<List<ServiceInstance>> get() {
            return getDelegate()
                    .get()
                    .map(healthy -> unreachable.candidates(healthy, () -> discovery.getInstances(getServiceId())));
        }
    }
}
