package dev.agora.frontend.identity;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param signingKey the RSA private key tokens are signed with (PKCS#8 PEM); blank only in the local profile,
 *     where one is made and kept in the identity database
 * @param serviceClients the services that may get {@code internal} tokens: client id to client secret
 * @param seedFile users and clients to create or update at start (the launcher's demo credentials); optional
 */
@ConfigurationProperties("agora.identity")
record IdentityProperties(String signingKey, Map<String, String> serviceClients, Path seedFile) {

    IdentityProperties {
        serviceClients = serviceClients == null ? Map.of() : Map.copyOf(serviceClients);
    }

    /**
     * How long an access token is valid: 15 minutes bounds what a stolen token is worth, and clients renew theirs
     * before it expires (a service's client-credentials token, a page's token for its person).
     */
    Duration tokenLifetime() {
        return Duration.ofMinutes(15);
    }
}
