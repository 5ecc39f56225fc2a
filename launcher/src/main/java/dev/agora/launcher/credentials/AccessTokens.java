package dev.agora.launcher.credentials;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Access tokens of the demo users, fetched from the frontend's token endpoint (OAuth2 client credentials) and kept
 * until shortly before they expire. A token request costs the frontend a BCrypt check (about 100 ms), so each
 * user's token is fetched once and shared by every thread; taking it is then a volatile read. About a minute before
 * it expires a new one is fetched in the background while the old one is still used, so a measured request never
 * waits for a token request (only a token that is about to expire, e.g. after a long pause, is fetched in the
 * caller's thread).
 */
public final class AccessTokens implements AutoCloseable {

    /** The demo users of a local cluster, as {@link Credentials} names them. */
    public enum User {
        ADMIN,
        TRADER,
        CUSTOMER
    }

    private static final Logger log = LoggerFactory.getLogger(AccessTokens.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration REFRESH_AHEAD = Duration.ofMinutes(1);
    /** A token this close to its expiry is not used any more: the request might reach the service after it. */
    private static final Duration EXPIRY_MARGIN = Duration.ofSeconds(5);

    private static final Duration RETRY_PAUSE = Duration.ofSeconds(1);

    private final Credentials credentials;
    private final URI tokenUrl;
    private final HttpClient http;
    private final Map<User, Holder> holders = new EnumMap<>(User.class);

    public AccessTokens(Credentials credentials) {
        this(
                credentials,
                credentials.tokenUrl(),
                Map.of(
                        User.ADMIN, credentials.admin(),
                        User.TRADER, credentials.trader(),
                        User.CUSTOMER, credentials.customer()));
    }

    private AccessTokens(Credentials credentials, URI tokenUrl, Map<User, Credentials.Client> clients) {
        this.credentials = credentials;
        this.tokenUrl = tokenUrl;
        this.http = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(2))
                .version(HttpClient.Version.HTTP_1_1)
                .build();
        clients.forEach((user, client) -> holders.put(user, new Holder(client)));
    }

    /**
     * Tokens for only some of the demo users, e.g. of an older cluster whose credentials file names fewer clients;
     * {@link #credentials()} is then null and asking for another user's token fails.
     */
    public static AccessTokens forClients(URI tokenUrl, Map<User, Credentials.Client> clients) {
        return new AccessTokens(null, tokenUrl, clients);
    }

    /** Whether this holds a client for the user. */
    public boolean has(User user) {
        return holders.containsKey(user);
    }

    public Credentials credentials() {
        return credentials;
    }

    /** The value of an {@code Authorization} header for the user: {@code Bearer <token>}. */
    public String authorization(User user) {
        return holder(user).token().authorization();
    }

    private Holder holder(User user) {
        Holder holder = holders.get(user);
        if (holder == null) throw new IllegalStateException("No client for the demo " + user + " user");
        return holder;
    }

    /** The user's access token itself. */
    public String accessToken(User user) {
        return holder(user).token().value();
    }

    /** Fetches every user's token now (unless held), e.g. before a measurement, so none is fetched during it. */
    public AccessTokens prefetch() {
        for (Holder holder : holders.values()) holder.token();
        return this;
    }

    /**
     * One token request, not cached: {@code POST token-url} with HTTP Basic and {@code grant_type=client_credentials}.
     *
     * @throws IllegalStateException when the endpoint does not answer 200 with a token
     */
    Token request(Credentials.Client client) {
        URI url = tokenUrl;
        String basic = Base64.getEncoder()
                .encodeToString((form(client.id()) + ":" + form(client.secret())).getBytes(StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(url)
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Basic " + basic)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials"))
                .build();
        long sent = System.nanoTime();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("Token request of " + client.id() + " to " + url + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while requesting a token at " + url, e);
        }
        if (response.statusCode() != 200) {
            throw new IllegalStateException("Token request of " + client.id() + " to " + url + " answered "
                    + response.statusCode() + ": " + response.body());
        }
        JsonNode body = JSON.readTree(response.body());
        String token = body.path("access_token").asString("");
        if (token.isEmpty()) throw new IllegalStateException("No access_token from " + url + ": " + response.body());
        // Counted from the moment the request left: the server's clock started no earlier.
        long lifetimeSeconds = body.path("expires_in").asLong(300);
        return new Token(token, sent, Duration.ofSeconds(lifetimeSeconds));
    }

    @Override
    public void close() {
        http.close();
    }

    private static String form(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /**
     * An access token and when it stops being worth using.
     *
     * @param obtained {@link System#nanoTime()} when it was asked for
     */
    record Token(String value, long obtained, Duration lifetime) {

        public String authorization() {
            return "Bearer " + value;
        }

        /** From here on a new token is fetched in the background: a minute before expiry, or halfway for short ones. */
        long refreshAt() {
            Duration ahead =
                    lifetime.compareTo(REFRESH_AHEAD.multipliedBy(2)) >= 0 ? REFRESH_AHEAD : lifetime.dividedBy(2);
            return obtained + lifetime.minus(ahead).toNanos();
        }

        /** From here on the token is not used any more. */
        long unusableAt() {
            Duration margin =
                    lifetime.compareTo(EXPIRY_MARGIN.multipliedBy(10)) >= 0 ? EXPIRY_MARGIN : lifetime.dividedBy(10);
            return obtained + lifetime.minus(margin).toNanos();
        }

        @Override
        public String toString() {
            return "Token[expires in " + lifetime + "]"; // never the token itself
        }
    }

    /** One user's current token; the header value is built once per token, not per request. */
    private final class Holder {
        private final Credentials.Client client;
        private final AtomicBoolean refreshing = new AtomicBoolean();
        private volatile Held current;
        private volatile long nextBackgroundAttempt = System.nanoTime();

        Holder(Credentials.Client client) {
            this.client = client;
        }

        Held token() {
            Held held = current;
            long now = System.nanoTime();
            if (held != null && now - held.refreshAt < 0) return held;
            if (held != null && now - held.unusableAt < 0) {
                refreshInBackground(now);
                return held;
            }
            synchronized (this) {
                held = current;
                if (held == null || System.nanoTime() - held.unusableAt >= 0) {
                    held = new Held(request(client));
                    current = held;
                }
                return held;
            }
        }

        private void refreshInBackground(long now) {
            if (now - nextBackgroundAttempt < 0 || !refreshing.compareAndSet(false, true)) return;
            Thread.ofVirtual().name("token-refresh-" + client.id()).start(() -> {
                try {
                    current = new Held(request(client));
                } catch (RuntimeException e) {
                    nextBackgroundAttempt = System.nanoTime() + RETRY_PAUSE.toNanos();
                    log.warn("Refreshing the token of {} failed; retrying: {}", client.id(), e.getMessage());
                } finally {
                    refreshing.set(false);
                }
            });
        }
    }

    /** A token with its header value and deadlines precomputed. */
    private record Held(String value, String authorization, long refreshAt, long unusableAt) {
        Held(Token token) {
            this(token.value(), token.authorization(), token.refreshAt(), token.unusableAt());
        }
    }
}
