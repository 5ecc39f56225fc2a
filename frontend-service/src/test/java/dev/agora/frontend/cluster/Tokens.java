package dev.agora.frontend.cluster;

import dev.agora.local.cluster.LocalProfile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Bearer tokens from the frontend's real token endpoint ({@code client_credentials}), one per client, kept until
 * two minutes before they expire (they live 15 minutes; a suite run on a loaded two-core box can take longer).
 */
public final class Tokens {

    private final URI tokenUrl;
    private static final Duration RENEW_BEFORE_EXPIRY = Duration.ofMinutes(2);

    private final Map<String, Issued> issued = new ConcurrentHashMap<>();

    private record Issued(String token, Instant renewAt) {}

    public Tokens(String tokenUrl) {
        this.tokenUrl = URI.create(tokenUrl);
    }

    public String admin() {
        return demo("demo-admin");
    }

    public String customer() {
        return demo("demo-customer");
    }

    public String trader() {
        return demo("demo-trader");
    }

    /** The catalog's own service token (scope internal), as it gets it to push invalidations. */
    public String catalogService() {
        return kept("catalog-service", () -> fetch("catalog-service", LocalProfile.CATALOG_CLIENT_SECRET, "internal"));
    }

    public Map<String, String> adminAuthorization() {
        return bearer(admin());
    }

    public Map<String, String> customerAuthorization() {
        return bearer(customer());
    }

    public static Map<String, String> bearer(String token) {
        return Map.of("Authorization", "Bearer " + token);
    }

    private String demo(String clientId) {
        return kept(clientId, () -> fetch(clientId, DemoCredentials.SECRETS.get(clientId)));
    }

    private String kept(String clientId, Supplier<String> fresh) {
        return issued.compute(
                        clientId,
                        (id, held) -> held != null && Instant.now().isBefore(held.renewAt())
                                ? held
                                : new Issued(
                                        fresh.get(),
                                        Instant.now().plus(LIFETIME).minus(RENEW_BEFORE_EXPIRY)))
                .token();
    }

    /** The frontends' token lifetime (IdentityProperties#tokenLifetime). */
    private static final Duration LIFETIME = Duration.ofMinutes(15);

    /** A fresh token for any client; throws when the endpoint refuses. */
    public String fetch(String clientId, String secret) {
        return fetch(clientId, secret, null);
    }

    /** A fresh token with the scope asked for (a service asks for {@code internal}, as its OAuth2 client does). */
    public String fetch(String clientId, String secret, String scope) {
        String basic = Base64.getEncoder().encodeToString((clientId + ":" + secret).getBytes(StandardCharsets.UTF_8));
        try (HttpClient client = HttpClient.newHttpClient()) {
            HttpResponse<String> answer = client.send(
                    HttpRequest.newBuilder(tokenUrl)
                            .header("Authorization", "Basic " + basic)
                            .header("Content-Type", "application/x-www-form-urlencoded")
                            .POST(HttpRequest.BodyPublishers.ofString(
                                    "grant_type=client_credentials" + (scope == null ? "" : "&scope=" + scope)))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() != 200) {
                throw new IllegalStateException(
                        "Token endpoint answered " + answer.statusCode() + ": " + answer.body());
            }
            return Http.JSON.readTree(answer.body()).get("access_token").asString();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
