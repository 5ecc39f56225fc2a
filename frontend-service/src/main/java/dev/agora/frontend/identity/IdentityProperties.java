package dev.agora.frontend.identity;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;

/**
 * @param signingKey the RSA private key tokens are signed with (PKCS#8 PEM); blank only in the local profile,
 *     where one is made and kept in the identity database
 * @param serviceClients the services that may get {@code internal} tokens: client id to client secret
 * @param seedFile users and clients to create or update at start (the launcher's demo credentials); optional
 * @param seedStamp where to note what seeding left ({@link SeedStamp}), so that a start with nothing changed seeds
 *     nothing; optional (every start seeds), the launcher sets it in its data directory
 */
@ConfigurationProperties("agora.identity")
record IdentityProperties(String signingKey, Map<String, String> serviceClients, Path seedFile, Path seedStamp) {

    @ConstructorBinding
    IdentityProperties {
        serviceClients = serviceClients == null ? Map.of() : Map.copyOf(serviceClients);
    }

    IdentityProperties(String signingKey, Map<String, String> serviceClients, Path seedFile) {
        this(signingKey, serviceClients, seedFile, null);
    }

    /**
     * How long an access token is valid: 15 minutes bounds what a stolen token is worth, and clients renew theirs
     * before it expires (a service's client-credentials token, a page's token for its person).
     */
    Duration tokenLifetime() {
        return Duration.ofMinutes(15);
    }
}
