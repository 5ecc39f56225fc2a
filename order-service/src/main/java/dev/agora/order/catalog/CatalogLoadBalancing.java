package dev.agora.order.catalog;

import java.time.Duration;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * Load-balancer configuration of the catalog client (deliberately not a scanned {@code @Configuration}: it
 * belongs to the catalog client's own child context). Replicas come from simple discovery and are health
 * checked every {@code spring.cloud.loadbalancer.health-check.interval} with a blocking RestClient, so a dead
 * or frozen replica leaves the rotation within about a second and a restarted one rejoins as quickly.
 */
class CatalogLoadBalancing {

    @Bean
    ServiceInstanceListSupplier catalogInstances(ConfigurableApplicationContext context) {
        return ServiceInstanceListSupplier.builder()
                .withBlockingDiscoveryClient()
                .withBlockingHealthChecks(healthChecks())
                .build(context);
    }

    private static RestClient healthChecks() {
        SimpleClientHttpRequestFactory requests = new SimpleClientHttpRequestFactory();
        requests.setConnectTimeout(Duration.ofMillis(250));
        requests.setReadTimeout(Duration.ofMillis(500));
        return RestClient.builder().requestFactory(requests).build();
    }
}
