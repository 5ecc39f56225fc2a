package dev.agora.local.cluster;

import dev.agora.local.process.ServiceProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A service's {@code /actuator/health} as text: what tests and the launcher wait for beyond readiness (an
 * exchange standing by is live but never ready; an order replica says whether it sweeps).
 */
public final class Health {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
    private static final Pattern GAUGE_VALUE = Pattern.compile("\"value\":([0-9.Ee+-]+)");

    private Health() {}

    /** The health document of the instance at {@code baseUrl}; empty when it gave none within {@code timeout}. */
    public static Optional<String> of(String baseUrl, Duration timeout) {
        try {
            return Optional.of(HTTP.send(
                            HttpRequest.newBuilder(URI.create(baseUrl + "/actuator/health"))
                                    .timeout(timeout)
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body());
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** The role an exchange at {@code baseUrl} reports (ACTIVE, STANDBY, RECOVERING, ...); empty when it does not say. */
    public static Optional<String> role(String baseUrl) {
        return of(baseUrl, Duration.ofMillis(500)).flatMap(body -> {
            int at = body.indexOf("\"role\":\"");
            if (at < 0) return Optional.empty();
            int from = at + "\"role\":\"".length();
            int to = body.indexOf('"', from);
            return to < 0 ? Optional.empty() : Optional.of(body.substring(from, to));
        });
    }

    /**
     * Waits until the process's health document contains {@code fragment} (e.g. {@code "role":"STANDBY"}).
     *
     * @throws IllegalStateException when the process exits or the timeout passes first, naming the last answer
     */
    public static void await(ServiceProcess process, String fragment, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(process.name() + " exited; log: " + process.logFile());
            }
            Optional<String> body = of(process.baseUrl(), Duration.ofSeconds(2));
            if (body.isPresent()) {
                last = body.get();
                if (last.contains(fragment)) return;
            }
            sleep(100);
        }
        throw new IllegalStateException(process.name() + " never reported " + fragment + " within " + timeout
                + "; last: " + last + "; log: " + process.logFile());
    }

    /**
     * Waits until an exchange instance is active (ready) or stands by (live, waiting for the lease, never ready).
     */
    public static void awaitActiveOrStandby(ServiceProcess process, Duration timeout) {
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

    /**
     * Waits until the exchange at {@code baseUrl}, standing by, has run its order path (the exchange's
     * {@code StandbyWarmUp}: its rounds gauge is above zero and has stopped moving), at most {@code timeout}; at once
     * when it does not stand by (a leader warms nothing) or has no such gauge.
     */
    public static void awaitStandbyWarmedUp(String baseUrl, Duration timeout) {
        URI gauge = URI.create(baseUrl + "/actuator/metrics/agora.exchange.standby.warm.up.rounds");
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = null;
        while (System.nanoTime() < deadline
                && role(baseUrl).filter("STANDBY"::equals).isPresent()) {
            String rounds = null;
            try {
                HttpResponse<String> answer = HTTP.send(
                        HttpRequest.newBuilder(gauge)
                                .timeout(Duration.ofSeconds(2))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() == 404) return;
                Matcher value = GAUGE_VALUE.matcher(answer.body());
                if (value.find()) rounds = value.group(1);
            } catch (IOException notAnswering) {
                // busy or gone: asked again, until the deadline
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            if (rounds != null && Double.parseDouble(rounds) > 0 && rounds.equals(last)) return;
            last = rounds;
            sleep(1_000);
        }
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
