package dev.agora.common.client;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.Counter;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * A Resilience4j breaker per replica of a service ({@code <service>@<host:port>}), recording each attempt on the
 * replica the load balancer chose: a refused connection ejects it at once, a run of failures (5xx, timeouts, resets) by
 * failure rate. The load balancer's list leaves ejected replicas out ({@link HealthCheckedInstances#admitted}); an
 * attempt its breaker does not permit (that list's last resort) is sent all the same, unrecorded.
 */
final class ReplicaBreakers implements ClientHttpRequestInterceptor {

    private static final Logger log = LoggerFactory.getLogger(ReplicaBreakers.class);

    private final String serviceId;
    private final CircuitBreakerRegistry registry;
    private final Counter poolTimeouts;
    private final ConcurrentHashMap<String, CircuitBreaker> byAuthority = new ConcurrentHashMap<>();

    /**
     * Half of ten calls failing opens a breaker; two health intervals later it is half-open by itself (no call would
     * ask: the load balancer leaves the replica out), and two trial calls close it. Half-open past its longest trial
     * call and a second, it lost a trial's outcome and opens again (Resilience4j's default waits forever).
     */
    ReplicaBreakers(
            String serviceId,
            CircuitBreakerRegistry registry,
            AgoraClients.Settings own,
            Duration interval,
            Counter poolTimeouts) {
        this.serviceId = serviceId;
        this.registry = registry;
        this.poolTimeouts = poolTimeouts;
        var config = CircuitBreakerConfig.custom()
                .slidingWindowSize(10)
                .minimumNumberOfCalls(5)
                .waitDurationInOpenState(interval.multipliedBy(2))
                .automaticTransitionFromOpenToHalfOpenEnabled(true)
                .permittedNumberOfCallsInHalfOpenState(2)
                .maxWaitDurationInHalfOpenState(
                        own.timeout().plus(own.notIdempotentTimeout()).plusSeconds(1))
                .recordResult(status -> status instanceof Integer code && code >= 500);
        registry.addConfiguration(serviceId, config.build());
    }

    @Override
    public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
            throws IOException {
        CircuitBreaker breaker = byAuthority.computeIfAbsent(
                request.getURI().getRawAuthority(),
                replica -> registry.circuitBreaker(serviceId + "@" + replica, serviceId));
        boolean permitted = breaker.tryAcquirePermission();
        long started = System.nanoTime();
        try {
            ClientHttpResponse response = execution.execute(request, body);
            if (permitted) {
                breaker.onResult(
                        System.nanoTime() - started,
                        TimeUnit.NANOSECONDS,
                        response.getStatusCode().value());
            }
            return response;
        } catch (IOException | RuntimeException | Error failed) {
            if (failed instanceof ConnectionRequestTimeoutException) poolTimeouts.increment();
            if (!neverSent(failed)) {
                if (permitted) breaker.onError(System.nanoTime() - started, TimeUnit.NANOSECONDS, failed);
                throw failed;
            }
            if (permitted) breaker.releasePermission();
            try {
                if (breaker.getState() != CircuitBreaker.State.OPEN) breaker.transitionToOpenState();
                log.warn("Ejected {} ({})", breaker.getName(), failed.toString());
            } catch (RuntimeException raced) {
                // another attempt ejected it at the same moment
            }
            throw failed;
        }
    }

    /** The request never reached the replica: refused, unroutable, or the connect timed out. */
    static boolean neverSent(Throwable error) {
        for (Throwable cause = error; cause != null && cause.getCause() != cause; cause = cause.getCause()) {
            // Apache HttpClient's and the JDK client's connect timeouts share no common type.
            if (cause instanceof ConnectException
                    || cause instanceof NoRouteToHostException
                    || cause.getClass().getSimpleName().endsWith("ConnectTimeoutException")) {
                return true;
            }
        }
        return false;
    }

    /** The state of the breaker of {@code serviceId}'s replica {@code instance}: closed before its first call. */
    static CircuitBreaker.State state(CircuitBreakerRegistry registry, String serviceId, ServiceInstance instance) {
        return registry.find(serviceId + "@" + instance.getHost() + ":" + instance.getPort())
                .map(CircuitBreaker::getState)
                .orElse(CircuitBreaker.State.CLOSED);
    }
}
