package dev.agora.common.client;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.cloud.loadbalancer.annotation.LoadBalancerClients;
import org.springframework.cloud.loadbalancer.support.LoadBalancerClientFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.web.client.RestClient;

/**
 * {@link ReplicaClients} for a service that has Spring Cloud LoadBalancer on (the frontend, the order service); a
 * service without it (the catalog, which only discovers the frontends, and the exchange) gets none.
 */
@AutoConfiguration(
        afterName = {
            "org.springframework.cloud.loadbalancer.config.LoadBalancerAutoConfiguration",
            "org.springframework.cloud.client.discovery.simple.SimpleDiscoveryClientAutoConfiguration",
            "org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration"
        })
@ConditionalOnClass(LoadBalancerClientFactory.class)
@ConditionalOnBean(LoadBalancerClientFactory.class)
@EnableConfigurationProperties(AgoraClients.class)
@LoadBalancerClients(defaultConfiguration = HealthCheckedInstances.class)
public class ReplicaClientsAutoConfiguration {

    @Bean(destroyMethod = "close")
    ReplicaClients replicaClients(
            AgoraClients settings,
            LoadBalancerClientFactory loadBalancers,
            DiscoveryClient discovery,
            ObjectProvider<RestClient.Builder> restClients,
            MeterRegistry meters,
            Environment environment) {
        return new ReplicaClients(
                settings,
                loadBalancers,
                discovery,
                restClients.getIfAvailable(RestClient::builder),
                meters,
                serviceId -> HealthCheckedInstances.healthInterval(environment, serviceId));
    }
}
