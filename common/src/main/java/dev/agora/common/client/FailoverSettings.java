package dev.agora.common.client;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Timeouts, retries and health checking of calls to replicated services ({@code agora.client.*}). The
 * defaults detect a dead replica at once and a frozen one within the read timeout, and readmit a
 * recovered replica within about one health interval.
 *
 * @param connectTimeout connect timeout; a refused or timed-out connect is retried on another replica
 * @param readTimeout how long a replica may take to answer before it counts as failed
 * @param maxAttempts attempts per call, each on a different replica
 * @param balancing how a replica is picked among the admitted ones
 * @param serverErrorsToEject consecutive 5xx answers after which a replica is ejected
 * @param healthInterval pause between health-probe rounds over every known replica
 * @param healthTimeout how long a health probe may take
 * @param healthPath probed path; 200 means ready
 * @param probeFailuresToEject consecutive failed (not refused) probes after which a replica is ejected
 * @param maxConnections connection pool size per replica
 */
@ConfigurationProperties("agora.client")
public record FailoverSettings(
        @DefaultValue("200ms") Duration connectTimeout,
        @DefaultValue("1s") Duration readTimeout,
        @DefaultValue("3") int maxAttempts,
        @DefaultValue("ROUND_ROBIN") BalancingPolicy balancing,
        @DefaultValue("3") int serverErrorsToEject,
        @DefaultValue("1s") Duration healthInterval,
        @DefaultValue("500ms") Duration healthTimeout,
        @DefaultValue("/actuator/health/readiness") String healthPath,
        @DefaultValue("2") int probeFailuresToEject,
        @DefaultValue("200") int maxConnections) {

    public FailoverSettings {
        if (maxAttempts < 1) throw new IllegalArgumentException("agora.client.max-attempts must be at least 1");
        if (serverErrorsToEject < 1) serverErrorsToEject = 1;
        if (probeFailuresToEject < 1) probeFailuresToEject = 1;
    }

    public static FailoverSettings defaults() {
        return new FailoverSettings(
                Duration.ofMillis(200),
                Duration.ofSeconds(1),
                3,
                BalancingPolicy.ROUND_ROBIN,
                3,
                Duration.ofSeconds(1),
                Duration.ofMillis(500),
                "/actuator/health/readiness",
                2,
                200);
    }

    public FailoverSettings withBalancing(BalancingPolicy policy) {
        return new FailoverSettings(
                connectTimeout,
                readTimeout,
                maxAttempts,
                policy,
                serverErrorsToEject,
                healthInterval,
                healthTimeout,
                healthPath,
                probeFailuresToEject,
                maxConnections);
    }
}
