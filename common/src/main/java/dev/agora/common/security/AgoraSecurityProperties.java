package dev.agora.common.security;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Shared secrets for service-to-service and admin calls. The defaults are for local development only;
 * deployments set {@code AGORA_SECURITY_INTERNAL_TOKEN} and {@code AGORA_SECURITY_ADMIN_TOKEN}.
 */
@ConfigurationProperties("agora.security")
public record AgoraSecurityProperties(String internalToken, String adminToken) {

    public static final String DEV_INTERNAL_TOKEN = "dev-internal-token";
    public static final String DEV_ADMIN_TOKEN = "dev-admin-token";

    public AgoraSecurityProperties {
        if (internalToken == null || internalToken.isBlank()) internalToken = DEV_INTERNAL_TOKEN;
        if (adminToken == null || adminToken.isBlank()) adminToken = DEV_ADMIN_TOKEN;
    }
}
