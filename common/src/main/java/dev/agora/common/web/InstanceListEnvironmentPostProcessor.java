package dev.agora.common.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.io.support.ResourcePropertySource;
import org.springframework.util.StringUtils;

/**
 * Lets replica lists be given as one comma-separated value per service, e.g.
 * {@code agora.instances.catalog-service=http://127.0.0.1:8180,http://127.0.0.1:8181} (environment:
 * {@code AGORA_INSTANCES_CATALOG_SERVICE}), and turns them into Spring Cloud simple-discovery instances.
 * A launcher or compose file can then pass any number of replicas without indexed property names.
 */
public class InstanceListEnvironmentPostProcessor implements EnvironmentPostProcessor {

    /** Spring Cloud LoadBalancer's and CircuitBreaker's settings as replica calls need them; the file says why each. */
    private static final String DEFAULTS = "classpath:dev/agora/common/web/replica-call-defaults.properties";

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
        try {
            environment.getPropertySources().addLast(new ResourcePropertySource("agoraReplicaCallDefaults", DEFAULTS));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
