package dev.agora.frontend.upstream;

import dev.agora.common.client.LoadBalancedClients;
import dev.agora.common.problem.ProblemException;
import dev.agora.common.problem.ProblemTypes;
import dev.agora.common.timing.ServerTiming;
import io.github.resilience4j.bulkhead.BulkheadFullException;
import java.net.URI;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.cloud.client.circuitbreaker.CircuitBreaker;
import org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientResponseException;
import org.springframework.web.client.support.RestClientAdapter;
import org.springframework.web.service.invoker.HttpServiceProxyFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The tiers behind the frontend: each one's load-balanced client (common's {@link LoadBalancedClients}: failover
 * across replicas), and {@link #call}, which every call to a tier goes through: its time recorded for
 * {@code Server-Timing} (with the tier's own entries under its name), the tier's bulkhead (Spring Cloud
 * CircuitBreaker), a tier's 4xx problem passed on to the client as it was, and any other failure a 503 problem.
 */
public final class Upstream {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final TypeReference<Map<String, Object>> PROBLEM_FIELDS = new TypeReference<>() {};

    private final Map<Tier, RestClient> clients = new EnumMap<>(Tier.class);
    private final Map<Tier, CircuitBreaker> calls = new EnumMap<>(Tier.class);

    Upstream(Map<Tier, RestClient> clients, CircuitBreakerFactory<?, ?> circuitBreakers) {
        this.clients.putAll(clients);
        for (Tier tier : Tier.values()) calls.put(tier, circuitBreakers.create(tier.serviceId()));
    }

    /** The tier's load-balanced client, for calls that are not typed (passthroughs): run them through {@link #call}. */
    public RestClient restClient(Tier tier) {
        return clients.get(tier);
    }

    /** The tier's typed {@code @HttpExchange} client {@code api}: run its calls through {@link #call}. */
    public <T> T client(Tier tier, Class<T> api) {
        return HttpServiceProxyFactory.builderFor(RestClientAdapter.create(restClient(tier)))
                .build()
                .createClient(api);
    }

    public <T> T call(Tier tier, Supplier<T> call) {
        return ServerTiming.call(tier.timingName(), () -> calls.get(tier).run(call, failed -> {
            throw failed(tier, failed);
        }));
    }

    private static RuntimeException failed(Tier tier, Throwable failed) {
        if (failed instanceof HttpClientErrorException answered) return passOn(answered);
        String why = failed instanceof BulkheadFullException ? "too many calls in flight" : failed.getMessage();
        return new ProblemException(
                HttpStatus.SERVICE_UNAVAILABLE,
                ProblemTypes.SERVICE_UNAVAILABLE,
                tier.serviceId() + " is unavailable: " + why);
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
