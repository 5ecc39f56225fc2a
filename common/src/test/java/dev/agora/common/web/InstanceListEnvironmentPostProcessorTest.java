package dev.agora.common.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

class InstanceListEnvironmentPostProcessorTest {

    @Test
    void commaSeparatedReplicaListBecomesSimpleDiscoveryInstances() {
        var environment = new StandardEnvironment();
        environment
                .getPropertySources()
                .addFirst(new MapPropertySource(
                        "test",
                        Map.of("agora.instances.catalog-service", "http://127.0.0.1:9001, http://127.0.0.1:9002")));

        new InstanceListEnvironmentPostProcessor().postProcessEnvironment(environment, new SpringApplication());

        String prefix = "spring.cloud.discovery.client.simple.instances.catalog-service";
        assertThat(environment.getProperty(prefix + "[0].uri")).isEqualTo("http://127.0.0.1:9001");
        assertThat(environment.getProperty(prefix + "[1].uri")).isEqualTo("http://127.0.0.1:9002");
        assertThat(environment.getProperty(prefix + "[2].uri")).isNull();
        assertThat(environment.getProperty("spring.cloud.discovery.client.simple.instances.order-service[0].uri"))
                .isNull();
    }
}
