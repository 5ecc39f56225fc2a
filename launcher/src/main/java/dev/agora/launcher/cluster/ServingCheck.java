package dev.agora.launcher.cluster;

import dev.agora.launcher.credentials.AccessTokens;
import dev.agora.launcher.credentials.Credentials;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits until every frontend actually reaches every tier behind it. An instance's readiness probe says only that
 * the instance itself is up; a frontend started beside its upstreams has usually ejected them (their probes failed
 * while they were starting) and readmits them a moment later. Read-only calls for ids that do not exist go through
 * each tier without changing state or filling caches: 404 means the tier answered, 503 that it is not in service
 * yet. Order and exchange reads need a token (SECURITY.md); the demo admin's may read any of them, so its token
 * goes through to the tier, and getting it proves that the frontends' authorization server and demo users work.
 */
final class ServingCheck {

    private static final Logger log = LoggerFactory.getLogger(ServingCheck.class);
    private static final Duration POLL = Duration.ofMillis(200);

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    /** @return whether everything served before the timeout (a warning is logged otherwise, nothing thrown) */
    boolean await(List<String> frontends, ClusterSpec spec, Credentials credentials, Duration timeout) {
        List<String> probes = bookstoreProbes(spec);
        if (spec.exchange()) probes.add("/api/exchange/accounts/0");
        return await(frontends, probes, credentials, timeout);
    }

    /**
     * Waits until {@code frontend} serves a lookup and an authenticated order read: the path of a buy, up to the
     * catalog's reservation. On the way the frontend issues a token (its authorization server's first), the order
     * service fetches the token keys and both load balancers list their upstreams, once, so that the first buyer
     * does not pay for them beside other starting instances.
     */
    boolean awaitBookstore(String frontend, ClusterSpec spec, Credentials credentials, Duration timeout) {
        return await(List.of(frontend), bookstoreProbes(spec), credentials, timeout);
    }

    private static List<String> bookstoreProbes(ClusterSpec spec) {
        List<String> probes = new ArrayList<>();
        if (spec.catalogs() > 0) probes.add("/api/books/" + Long.MAX_VALUE);
        if (spec.orders() > 0) probes.add("/api/orders/" + Long.MAX_VALUE);
        return probes;
    }

    private boolean await(List<String> frontends, List<String> probes, Credentials credentials, Duration timeout) {
        if (frontends.isEmpty()) return true;
        long deadline = System.nanoTime() + timeout.toNanos();
        try (AccessTokens tokens = new AccessTokens(credentials)) {
            String authorization = adminToken(tokens, deadline, timeout);
            if (authorization == null) return false;
            for (String frontend : frontends) {
                for (String probe : probes) {
                    while (!answers(frontend + probe, authorization)) {
                        if (System.nanoTime() > deadline) {
                            log.warn(
                                    "{} does not serve {} yet after {} s; continuing",
                                    frontend,
                                    probe,
                                    timeout.toSeconds());
                            return false;
                        }
                        sleep();
                    }
                }
            }
        }
        return true;
    }

    /** @return the admin's {@code Authorization} header value, null when none came before the deadline */
    private static String adminToken(AccessTokens tokens, long deadline, Duration timeout) {
        while (true) {
            try {
                return tokens.authorization(AccessTokens.User.ADMIN);
            } catch (IllegalStateException e) {
                if (System.nanoTime() > deadline) {
                    log.warn(
                            "No token for the demo admin after {} s ({}); continuing",
                            timeout.toSeconds(),
                            e.getMessage());
                    return null;
                }
                sleep();
            }
        }
    }

    private boolean answers(String url, String authorization) {
        try {
            HttpResponse<Void> response = http.send(
                    HttpRequest.newBuilder(URI.create(url))
                            .timeout(Duration.ofSeconds(5))
                            .header("Authorization", authorization)
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            return response.statusCode() < 500;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(POLL);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
