package dev.agora.perf.cluster;

import dev.agora.local.process.ServiceProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What an exchange instance is doing, from its health endpoint: the active one is ready, a standby is live and says
 * {@code "role":"STANDBY"} (it waits for the lease and is never ready).
 */
public final class ExchangeRoles {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

    private ExchangeRoles() {}

    /** Waits until the instance is active (ready) or stands by. */
    static void awaitActiveOrStandby(ServiceProcess process, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(process.name() + " exited; log: " + process.logFile());
            }
            if (process.isReady()) {
                process.awaitReady(timeout);
                return;
            }
            if (role(process.baseUrl()).filter("STANDBY"::equals).isPresent()) return;
            sleep(100);
        }
        throw new IllegalStateException(
                process.name() + " neither active nor standing by after " + timeout + "; log: " + process.logFile());
    }

    /** The role an exchange at {@code baseUrl} reports (ACTIVE, STANDBY, RECOVERING, ...); empty when it does not answer. */
    public static Optional<String> role(String baseUrl) {
        try {
            String body = HTTP.send(
                            HttpRequest.newBuilder(URI.create(baseUrl + "/actuator/health"))
                                    .timeout(Duration.ofMillis(500))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            int at = body.indexOf("\"role\":\"");
            if (at < 0) return Optional.empty();
            int from = at + "\"role\":\"".length();
            return Optional.of(body.substring(from, body.indexOf('"', from)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** The index (1-based) in {@code baseUrls} of the instance that is active now; empty when none is. */
    public static Optional<Integer> active(List<String> baseUrls) {
        for (int i = 0; i < baseUrls.size(); i++) {
            if (role(baseUrls.get(i)).filter("ACTIVE"::equals).isPresent()) return Optional.of(i + 1);
        }
        return Optional.empty();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
