package dev.agora.common.client;

import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The replica clients a service has, by service id: {@code agora.clients.<service-id>.*} ({@link ClientSettings}).
 * A service named here is called through {@link ReplicaClients}, and its instance list is health-checked from the
 * start.
 */
@ConfigurationProperties("agora")
public record AgoraClients(Map<String, ClientSettings> clients) {

    public AgoraClients {
        clients = clients == null ? Map.of() : Map.copyOf(clients);
    }

    /** The settings of {@code serviceId}, or the defaults when it is not configured. */
    public ClientSettings of(String serviceId) {
        return clients.getOrDefault(serviceId, ClientSettings.defaults());
    }
}
