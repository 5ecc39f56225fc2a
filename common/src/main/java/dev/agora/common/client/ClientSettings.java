package dev.agora.common.client;

import java.time.Duration;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How one service's replicas are called ({@code agora.clients.<service-id>.*}; from the environment in Spring's
 * relaxed form, e.g. {@code AGORA_CLIENTS_CATALOG_SERVICE_TIMEOUT}, for a service the application's configuration
 * names). Everything else is derived from
 * these (see {@code common/README.md}, "Client settings"): waiting for a pooled connection is bounded by
 * {@code timeout} too, the connection pool is sized from {@code maxConcurrentCalls}, hedges are limited to a tenth of
 * it, and a replica's circuit breaker stays open for two health-check intervals before it is tried again.
 *
 * @param timeout how long one attempt waits for its answer (the HTTP client's response timeout): longer than the
 *     slowest answer a working replica may give, which for a service that calls further tiers itself includes
 *     their timeouts. A frozen replica costs idempotent calls {@code hedgeAfter}, not this
 * @param connectTimeout a refused connection fails at once and moves to another replica; this bounds an
 *     unroutable one
 * @param attempts tries per call, each on another replica while there is one (Resilience4j {@code Retry});
 *     a call that may have reached a replica is repeated only when it is idempotent
 * @param hedgeAfter an idempotent attempt with no answer after this is also sent to another replica and the first
 *     answer wins, so a frozen or dying replica costs this instead of a timeout; {@code 0} turns hedging off
 * @param maxConcurrentCalls calls in flight at once (Resilience4j {@code Bulkhead}); more are refused with 503
 * @param retryInterval the pause before each repeated attempt; {@code 0} (the default) repeats at once on another
 *     replica. Above zero the service is taken to have one leader at a time, whose successor serves a fraction of a
 *     second after the leader is lost: a call that finds no replica admitted calls every replica discovery knows in
 *     turn (a standby refuses with nothing applied, the successor answers), a replica that lets an attempt time out
 *     is ejected, and a call with nowhere to go waits and looks again, so {@code attempts x retryInterval} is how
 *     long a call waits for the successor
 * @param notIdempotentTimeout how long an attempt of a call that is not idempotent waits for its answer; {@code 0}
 *     (the default) is {@code timeout}. Such a call is not repeated after a timeout, whose outcome is unknown, so
 *     giving up sooner than the replica's own bound on its answer only turns an effect it applied into an answer
 *     that says it may not have been (a slow first write of a replica that is alive). Set it above that bound
 */
public record ClientSettings(
        @DefaultValue("2s") Duration timeout,
        @DefaultValue("200ms") Duration connectTimeout,
        @DefaultValue("3") int attempts,
        @DefaultValue("0ms") Duration hedgeAfter,
        @DefaultValue("200") int maxConcurrentCalls,
        @DefaultValue("0ms") Duration retryInterval,
        @DefaultValue("0ms") Duration notIdempotentTimeout) {

    public ClientSettings {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("agora.clients.*.timeout must be positive");
        }
        if (connectTimeout == null || connectTimeout.isNegative() || connectTimeout.isZero()) {
            throw new IllegalArgumentException("agora.clients.*.connect-timeout must be positive");
        }
        if (attempts < 1) throw new IllegalArgumentException("agora.clients.*.attempts must be at least 1");
        if (hedgeAfter == null || hedgeAfter.isNegative()) hedgeAfter = Duration.ZERO;
        if (maxConcurrentCalls < 1) {
            throw new IllegalArgumentException("agora.clients.*.max-concurrent-calls must be at least 1");
        }
        if (retryInterval == null || retryInterval.isNegative()) retryInterval = Duration.ZERO;
        if (notIdempotentTimeout == null || notIdempotentTimeout.isNegative() || notIdempotentTimeout.isZero()) {
            notIdempotentTimeout = timeout;
        }
    }

    public static ClientSettings defaults() {
        return new ClientSettings(
                Duration.ofSeconds(2), Duration.ofMillis(200), 3, Duration.ZERO, 200, Duration.ZERO, Duration.ZERO);
    }

    /** How long one attempt of a call of this safety waits for its answer. */
    Duration timeout(CallSafety safety) {
        return safety == CallSafety.NOT_IDEMPOTENT ? notIdempotentTimeout : timeout;
    }

    /** Whether a call that finds no replica admitted waits {@code retryInterval} and looks again. */
    boolean waitsForReplicas() {
        return !retryInterval.isZero() && attempts > 1;
    }

    /** Whether idempotent calls are hedged. */
    boolean hedging() {
        return !hedgeAfter.isZero() && attempts > 1;
    }

    /** Hedges in flight at once: a tenth of the calls, so hedging adds at most about a tenth to the load. */
    int maxConcurrentHedges() {
        return Math.max(1, maxConcurrentCalls / 10);
    }
}
