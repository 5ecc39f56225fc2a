package dev.agora.local.cluster;

import dev.agora.local.postgres.DatabaseOwners;
import dev.agora.local.postgres.PostgresServer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a service process of a local cluster runs with: the {@code local} Spring profile, whose development client
 * secrets (each service's {@code application-local.yml}) the services refuse in every other profile, and its
 * database login as environment variables. The launcher and the services' tests start processes with these, so
 * the names are written down once.
 */
public final class LocalProfile {

    /** The profile every process of a local cluster runs in. */
    public static final String NAME = "local";

    /** The catalog's OAuth2 client secret in the local profile (catalog's and frontend's application-local.yml). */
    public static final String CATALOG_CLIENT_SECRET = "local-dev-catalog-service-secret-0123456789abcdef";

    /** The order service's OAuth2 client secret in the local profile (order's and frontend's application-local.yml). */
    public static final String ORDER_CLIENT_SECRET = "local-dev-order-service-secret-0123456789abcdef";

    private LocalProfile() {}

    /** {@code SPRING_PROFILES_ACTIVE=local}. */
    public static Map<String, String> environment() {
        return Map.of("SPRING_PROFILES_ACTIVE", NAME);
    }

    /** The local profile, trusting the token keys of {@code authorities} (comma-separated issuer base URLs). */
    public static Map<String, String> trusting(String authorities) {
        Map<String, String> env = new LinkedHashMap<>(environment());
        env.put("AGORA_SECURITY_AUTHORITIES", authorities);
        return env;
    }

    /** {@code DATABASE_URL}, {@code DATABASE_USERNAME} and {@code DATABASE_PASSWORD}, as every service reads them. */
    public static Map<String, String> database(String jdbcUrl, String username, String password) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("DATABASE_URL", jdbcUrl);
        env.put("DATABASE_USERNAME", username);
        env.put("DATABASE_PASSWORD", password);
        return env;
    }

    /** Database {@code name} of {@code server}, as its superuser (tests, which also read and reset it). */
    public static Map<String, String> database(PostgresServer server, String name) {
        return database(server.jdbcUrl(name), server.username(), server.password());
    }

    /** A service's own role, owner of its database only (the launcher). */
    public static Map<String, String> database(DatabaseOwners.Login login) {
        return database(login.jdbcUrl(), login.username(), login.password());
    }
}
