package dev.agora.frontend.upstream;

import dev.agora.common.client.CallSafety;
import dev.agora.common.client.Replica;
import dev.agora.common.client.ReplicaClients;
import dev.agora.common.timing.ServerTiming;
import java.net.URI;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestClientResponseException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Calls to the tiers behind the frontend: failover across replicas, time recorded for
 * {@code Server-Timing} (with the tier's own entries under its name), and a tier's 4xx problem passed on to
 * the client as it was.
 */
public final class Upstream {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final TypeReference<Map<String, Object>> PROBLEM_FIELDS = new TypeReference<>() {};

    private final ReplicaClients replicas;

    public Upstream(ReplicaClients replicas) {
        this.replicas = replicas;
    }

    public <T> T call(Tier tier, CallSafety safety, Replica.Attempt<T> attempt) {
        try {
            return ServerTiming.call(tier.timingName(), () -> replicas.call(tier.serviceId(), safety, attempt));
        } catch (RestClientResponseException answered) {
            throw passOn(answered);
        }
    }

    /**
     * Whether a tier's answer is a refusal that applied nothing (503 {@code not-applied}: a standby, a deposed
     * leader): an attempt that reads answers itself throws it, and the call is repeated where it can be served.
     */
    public static boolean refusedBeforeApplying(HttpServerErrorException answered) {
        return ReplicaClients.refusedBeforeApplying(answered);
    }

    /** The tier's own problem (status, type, detail, extra properties), under the frontend's path. */
    static ErrorResponseException passOn(RestClientResponseException answered) {
        HttpStatus status = HttpStatus.resolve(answered.getStatusCode().value());
        if (status == null) status = HttpStatus.BAD_GATEWAY;
        ProblemDetail problem = ProblemDetail.forStatus(status);
        for (Map.Entry<String, Object> field :
                readProblem(answered.getResponseBodyAsByteArray()).entrySet()) {
            Object value = field.getValue();
            switch (field.getKey()) {
                case "type" -> problem.setType(URI.create(String.valueOf(value)));
                case "title" -> problem.setTitle(String.valueOf(value));
                case "detail" -> problem.setDetail(String.valueOf(value));
                case "status", "instance" -> {
                    // The status is the answer's; the instance is set to the frontend's own path.
                }
                default -> problem.setProperty(field.getKey(), value);
            }
        }
        return new ErrorResponseException(status, problem, null);
    }

    private static Map<String, Object> readProblem(byte[] body) {
        if (body.length == 0) return Map.of();
        try {
            return JSON.readValue(body, PROBLEM_FIELDS);
        } catch (JacksonException notJson) {
            // Not problem+json: the status alone still tells the client what happened.
            return Map.of();
        }
    }
}
