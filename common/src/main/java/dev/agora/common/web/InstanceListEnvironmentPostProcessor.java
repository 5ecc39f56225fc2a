package dev.agora.common.web;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.StringUtils;

/**
 * Lets replica lists be given as one comma-separated value per service, e.g.
 * {@code agora.instances.catalog-service=http://127.0.0.1:8180,http://127.0.0.1:8181} (environment:
 * {@code AGORA_INSTANCES_CATALOG_SERVICE}), and turns them into Spring Cloud simple-discovery instances.
 * A launcher or compose file can then pass any number of replicas without indexed property names.
 */
public class InstanceListEnvironmentPostProcessor implements EnvironmentPostProcessor {

    public static final List<String> SERVICES =
            List.of("catalog-service", "order-service", "frontend-service", "exchange-service");

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        Map<String, Object> properties = new HashMap<>();
        for (String service : SERVICES) {
            String list = environment.getProperty("agora.instances." + service);
            if (!StringUtils.hasText(list)) continue;
            String[] uris = StringUtils.commaDelimitedListToStringArray(list.replace(" ", ""));
            // Spring Cloud names each instance's service after its key.
            for (int i = 0; i < uris.length; i++) {
                properties.put(
                        "spring.cloud.discovery.client.simple.instances." + service + "[" + i + "].uri", uris[i]);
            }
        }
        if (!properties.isEmpty()) {
            environment.getPropertySources().addFirst(new MapPropertySource("agoraInstanceLists", properties));
        }
        environment.getPropertySources().addLast(new MapPropertySource("agoraLoadBalancerDefaults", LOAD_BALANCER));
    }

    /**
     * Spring Cloud LoadBalancer as replica calls need it ({@code LoadBalancedClients}), below every other source so a
     * service or deployment can still change it: every replica's readiness checked twice a second (the defaults
     * are 25 s, far too slow to follow a crash or a restart). Its retry ({@code spring.cloud.loadbalancer.retry.*})
     * is left on, as Spring Cloud ships it: {@code @LoadBalanced} clients repeat attempts with it.
     */
    private static final Map<String, Object> LOAD_BALANCER = Map.of(
            "spring.cloud.loadbalancer.health-check.interval",
            "500ms",
            "spring.cloud.loadbalancer.health-check.path.default",
            "/readyz",
            // Each round's list whole, not growing replica by replica from empty (Spring Cloud's default): a list
            // of one replica in the middle of every round would take all calls to it.
            "spring.cloud.loadbalancer.health-check.update-results-list",
            "false",
            // It warns on every repeated attempt when the failed replica was the only one listed, which the replica
            // clients expect and handle (they go to the same one, or to their last resort): a line per retry.
            "logging.level.org.springframework.cloud.loadbalancer.core.RetryAwareServiceInstanceListSupplier",
            "error");
}
