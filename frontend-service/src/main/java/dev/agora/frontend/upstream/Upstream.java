package dev.agora.frontend.upstream;

import dev.agora.common.client.CallSafety;
import dev.agora.common.client.FailoverClient;
import dev.agora.frontend.timing.ServerTiming;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.client.RestClientResponseException;

/**
 * Calls to the tiers behind the frontend: failover across replicas, time recorded for
 * {@code Server-Timing}, and a tier's 4xx problem passed on to the client as it was.
 */
public final class Upstream {

    private final FailoverClient failover;

    public Upstream(FailoverClient failover) {
        this.failover = failover;
    }

    public <T> T call(Tier tier, CallSafety safety, FailoverClient.Attempt<T> attempt) {
        return ServerTiming.measure(tier.timingName(), () -> {
            try {
                return failover.call(tier.serviceId(), safety, attempt);
            } catch (RestClientResponseException answered) {
                throw passOn(answered);
            }
        });
    }

    /** The tier's own problem (status, type, detail, extra properties), under the frontend's path. */
    static ErrorResponseException passOn(RestClientResponseException answered) {
        HttpStatus status = HttpStatus.resolve(answered.getStatusCode().value());
        if (status == null) status = HttpStatus.BAD_GATEWAY;
        ProblemDetail problem = null;
        try {
            problem = answered.getResponseBodyAs(ProblemDetail.class);
        } catch (RuntimeException unreadable) {
            // Not problem+json: the status alone still tells the client what happened.
        }
        if (problem == null) problem = ProblemDetail.forStatus(status);
        problem.setStatus(status.value());
        problem.setInstance(null);
        return new ErrorResponseException(status, problem, null);
    }
}
