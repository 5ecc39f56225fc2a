package dev.agora.frontend.upstream;

import dev.agora.common.client.InstanceListSource;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.support.LoadBalancerClientFactory;

/**
 * Replica lists from Spring Cloud LoadBalancer's instance-list supplier of each service (simple discovery
 * fed by {@code agora.instances.*} here; any other discovery client in a deployment), so its configuration
 * (caching, zones, subsets) applies. Health is judged by the failover client's own probes.
 */
final class LoadBalancerInstances implements InstanceListSource {

    private static final Duration WAIT = Duration.ofSeconds(2);

    private final LoadBalancerClientFactory loadBalancers;

    LoadBalancerInstances(LoadBalancerClientFactory loadBalancers) {
        this.loadBalancers = loadBalancers;
    }

    @Override
    public List<URI> instances(String serviceId) {
        ServiceInstanceListSupplier supplier = loadBalancers.getInstance(serviceId, ServiceInstanceListSupplier.class);
        if (supplier == null) return List.of();
        List<ServiceInstance> instances = supplier.get().blockFirst(WAIT);
        return instances == null
                ? List.of()
                : instances.stream().map(ServiceInstance::getUri).toList();
    }
}
