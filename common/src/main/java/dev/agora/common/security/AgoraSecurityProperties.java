package dev.agora.common.security;

import java.net.URI;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Who issues the tokens this service accepts, and who this service is when it calls another.
 *
 * @param issuer the {@code iss} of accepted tokens, also the base URL where clients discover the authorization server
 * @param authorities base URLs of the authorization server's replicas (the frontends), tried in order: their
 *     {@code /oauth2/jwks} verifies tokens, their {@code /oauth2/token} issues this service's own
 * @param clientSecret this service's secret as OAuth2 client {@code spring.application.name}; blank if it calls none
 */
@ConfigurationProperties("agora.security")
public record AgoraSecurityProperties(String issuer, List<URI> authorities, String clientSecret) {

    /**
     * The local cluster's first frontend: a client that discovers the authorization server from the issuer (RFC 8414)
     * reaches it there. Deployments set {@code AGORA_SECURITY_ISSUER} to their public URL.
     */
    public static final String DEFAULT_ISSUER = "http://localhost:8080";

    public AgoraSecurityProperties {
        if (issuer == null || issuer.isBlank()) issuer = DEFAULT_ISSUER;
        authorities = authorities == null ? List.of() : List.copyOf(authorities);
    }
}
