package dev.agora.common.client;

import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Timeouts, hedging, retries and health checking of calls to replicated services ({@code agora.client.*}).
 * The defaults fail over from a dead replica at once (a refused connect), cost a frozen one only the hedge
 * delay, and readmit a recovered replica within about one health interval.
 *
 * <p>The timeouts nest: a caller's {@link #callTimeout} for a service must cover what that service may
 * itself spend on its own downstream calls (see "Timeout budget" in {@code frontend-service/README.md}).
 *
 * @param connectTimeout connect timeout; a refused or timed-out connect is retried on another replica at once
 * @param readTimeout how long one attempt may wait for its answer before it counts as failed
 * @param hedgeDelay when an idempotent call has no answer after this long, the same request is also sent to
 *     another replica and the first answer wins; {@code 0} turns hedging off. With {@code hedgePercentile} this
 *     is the longest hedge delay: the cap that keeps what a frozen replica costs bounded
 * @param hedgePercentile hedge once a call has waited longer than this percentile of the service's recent
 *     answer times (between {@code hedgeFloor} and {@code hedgeDelay}), so a slow, frozen or dying replica costs
 *     about one usual slow answer and about {@code 100 - hedgePercentile}% more calls; {@code 0}: always wait
 *     {@code hedgeDelay}
 * @param hedgeFloor the shortest hedge delay, so that a fast service's calls are not hedged on scheduling noise
 * @param hedgeBudgetPercent hedges a service's calls may send, as a share of its answered attempts: however slow
 *     the service gets, hedging adds at most about this much to its load (see {@link HedgeBudget})
 * @param hedgeBudgetBurst hedges that may be sent beyond that share in a row (the budget's size; it starts full)
 * @param callTimeout the whole call, all attempts and hedges included; when it passes the call ends in 503
 * @param maxAttempts attempts (hedges included) per call, each on a different replica
 * @param balancing how a replica is picked among the admitted ones
 * @param serverErrorsToEject consecutive 5xx answers after which a replica is ejected
 * @param overtakenToEject consecutive hedges a replica lost without answering anything in between, after which
 *     it is ejected as frozen (never the last admitted replica)
 * @param healthInterval period of health-probe rounds over every known replica (ejected ones are probed five
 *     times as often, so a restarted replica is readmitted soon after it is ready)
 * @param healthTimeout how long a health probe may take
 * @param healthPath probed path; 200 means ready
 * @param probeFailuresToEject consecutive failed (not refused) probes after which a replica is ejected
 * @param maxConnections connection pool size per replica
 * @param services per-service overrides of {@code read-timeout}, {@code hedge-delay} and {@code call-timeout},
 *     keyed by service id (a tier that calls further tiers itself needs longer ones)
 */
@ConfigurationProperties("agora.client")
public record FailoverSettings(
        @DefaultValue("200ms") Duration connectTimeout,
        @DefaultValue("1s") Duration readTimeout,
        @DefaultValue("50ms") Duration hedgeDelay,
        @DefaultValue("95") int hedgePercentile,
        @DefaultValue("5ms") Duration hedgeFloor,
        @DefaultValue("10") int hedgeBudgetPercent,
        @DefaultValue("10") int hedgeBudgetBurst,
        @DefaultValue("1500ms") Duration callTimeout,
        @DefaultValue("3") int maxAttempts,
        @DefaultValue("ROUND_ROBIN") BalancingPolicy balancing,
        @DefaultValue("3") int serverErrorsToEject,
        @DefaultValue("2") int overtakenToEject,
        @DefaultValue("500ms") Duration healthInterval,
        @DefaultValue("500ms") Duration healthTimeout,
        @DefaultValue("/readyz") String healthPath,
        @DefaultValue("2") int probeFailuresToEject,
        @DefaultValue("200") int maxConnections,
        Map<String, ServiceTimeouts> services) {

    /** Overrides for one service; a {@code null} field keeps the general setting. */
    public record ServiceTimeouts(Duration readTimeout, Duration hedgeDelay, Duration callTimeout) {}

    public FailoverSettings {
        if (maxAttempts < 1) throw new IllegalArgumentException("agora.client.max-attempts must be at least 1");
        if (hedgePercentile < 0 || hedgePercentile >= 100) {
            throw new IllegalArgumentException("agora.client.hedge-percentile must be in [0, 100)");
        }
        if (hedgeBudgetPercent < 0 || hedgeBudgetPercent > 100) {
            throw new IllegalArgumentException("agora.client.hedge-budget-percent must be in [0, 100]");
        }
        if (hedgeBudgetBurst < 0) throw new IllegalArgumentException("agora.client.hedge-budget-burst must be >= 0");
        if (serverErrorsToEject < 1) serverErrorsToEject = 1;
        if (overtakenToEject < 1) overtakenToEject = 1;
        if (probeFailuresToEject < 1) probeFailuresToEject = 1;
        services = services == null ? Map.of() : Map.copyOf(services);
    }

    public static FailoverSettings defaults() {
        return new FailoverSettings(
                Duration.ofMillis(200),
                Duration.ofSeconds(1),
                Duration.ofMillis(50),
                95,
                Duration.ofMillis(5),
                10,
                10,
                Duration.ofMillis(1500),
                3,
                BalancingPolicy.ROUND_ROBIN,
                3,
                2,
                Duration.ofMillis(500),
                Duration.ofMillis(500),
                "/readyz",
                2,
                200,
                Map.of());
    }

    public Duration readTimeout(String serviceId) {
        ServiceTimeouts own = services.get(serviceId);
        return own != null && own.readTimeout() != null ? own.readTimeout() : readTimeout;
    }

    public Duration hedgeDelay(String serviceId) {
        ServiceTimeouts own = services.get(serviceId);
        return own != null && own.hedgeDelay() != null ? own.hedgeDelay() : hedgeDelay;
    }

    public Duration callTimeout(String serviceId) {
        ServiceTimeouts own = services.get(serviceId);
        return own != null && own.callTimeout() != null ? own.callTimeout() : callTimeout;
    }

    public FailoverSettings withBalancing(BalancingPolicy policy) {
        Draft draft = new Draft(this);
        draft.balancing = policy;
        return draft.settings();
    }

    /** The same settings with other timeouts ({@code hedgeDelay} 0: no hedging). */
    public FailoverSettings withTimeouts(
            Duration connectTimeout, Duration readTimeout, Duration hedgeDelay, Duration callTimeout) {
        Draft draft = new Draft(this);
        draft.connectTimeout = connectTimeout;
        draft.readTimeout = readTimeout;
        draft.hedgeDelay = hedgeDelay;
        draft.callTimeout = callTimeout;
        return draft.settings();
    }

    /** The same settings with another adaptive hedge delay ({@code percentile} 0: always the hedge delay). */
    public FailoverSettings withHedging(int percentile, Duration floor) {
        Draft draft = new Draft(this);
        draft.hedgePercentile = percentile;
        draft.hedgeFloor = floor;
        return draft.settings();
    }

    /** The same settings with another hedge budget. */
    public FailoverSettings withHedgeBudget(int percent, int burst) {
        Draft draft = new Draft(this);
        draft.hedgeBudgetPercent = percent;
        draft.hedgeBudgetBurst = burst;
        return draft.settings();
    }

    /** The same settings with other health probing. */
    public FailoverSettings withHealth(Duration healthInterval, Duration healthTimeout, String healthPath) {
        Draft draft = new Draft(this);
        draft.healthInterval = healthInterval;
        draft.healthTimeout = healthTimeout;
        draft.healthPath = healthPath;
        return draft.settings();
    }

    /** The same settings with a pool of this many connections per replica. */
    public FailoverSettings withMaxConnections(int maxConnections) {
        Draft draft = new Draft(this);
        draft.maxConnections = maxConnections;
        return draft.settings();
    }

    /** A copy to change some settings of, so that each {@code with} method names only what it changes. */
    private static final class Draft {
        private Duration connectTimeout;
        private Duration readTimeout;
        private Duration hedgeDelay;
        private int hedgePercentile;
        private Duration hedgeFloor;
        private int hedgeBudgetPercent;
        private int hedgeBudgetBurst;
        private Duration callTimeout;
        private int maxAttempts;
        private BalancingPolicy balancing;
        private int serverErrorsToEject;
        private int overtakenToEject;
        private Duration healthInterval;
        private Duration healthTimeout;
        private String healthPath;
        private int probeFailuresToEject;
        private int maxConnections;
        private Map<String, ServiceTimeouts> services;

        private Draft(FailoverSettings settings) {
            connectTimeout = settings.connectTimeout;
            readTimeout = settings.readTimeout;
            hedgeDelay = settings.hedgeDelay;
            hedgePercentile = settings.hedgePercentile;
            hedgeFloor = settings.hedgeFloor;
            hedgeBudgetPercent = settings.hedgeBudgetPercent;
            hedgeBudgetBurst = settings.hedgeBudgetBurst;
            callTimeout = settings.callTimeout;
            maxAttempts = settings.maxAttempts;
            balancing = settings.balancing;
            serverErrorsToEject = settings.serverErrorsToEject;
            overtakenToEject = settings.overtakenToEject;
            healthInterval = settings.healthInterval;
            healthTimeout = settings.healthTimeout;
            healthPath = settings.healthPath;
            probeFailuresToEject = settings.probeFailuresToEject;
            maxConnections = settings.maxConnections;
            services = settings.services;
        }

        private FailoverSettings settings() {
            return new FailoverSettings(
                    connectTimeout,
                    readTimeout,
                    hedgeDelay,
                    hedgePercentile,
                    hedgeFloor,
                    hedgeBudgetPercent,
                    hedgeBudgetBurst,
                    callTimeout,
                    maxAttempts,
                    balancing,
                    serverErrorsToEject,
                    overtakenToEject,
                    healthInterval,
                    healthTimeout,
                    healthPath,
                    probeFailuresToEject,
                    maxConnections,
                    services);
        }
    }
}
