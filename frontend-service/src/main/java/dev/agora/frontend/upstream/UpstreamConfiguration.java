package dev.agora.frontend.upstream;

import dev.agora.common.client.ReplicaClients;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The tiers behind the frontend, called through common's {@link ReplicaClients} ({@code agora.clients.*} in
 * application.yml: catalog, order and exchange).
 */
@Configuration(proxyBeanMethods = false)
class UpstreamConfiguration {

    @Bean
    Upstream upstream(ReplicaClients replicas) {
        return new Upstream(replicas);
    }

    @Bean
    FilterRegistrationBean<ClientsNameNoWriter> clientsNameNoWriter() {
        var registration = new FilterRegistrationBean<>(new ClientsNameNoWriter());
        registration.setOrder(ClientsNameNoWriter.ORDER);
        return registration;
    }
}
