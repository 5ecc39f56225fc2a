package dev.agora.common.client;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.Retry;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.loadbalancer.DefaultRequest;
import org.springframework.cloud.client.loadbalancer.Request;
import org.springframework.cloud.client.loadbalancer.Response;
import org.springframework.cloud.client.loadbalancer.RetryableRequestContext;
import org.springframework.cloud.client.loadbalancer.reactive.ReactiveLoadBalancer;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientResponseException;
import reactor.core.publisher.Mono;

/**
 * Calls to the replicas of one service. Spring Cloud LoadBalancer chooses each attempt's replica (round robin over
 * the health-checked instance list, the previous attempt's replica left out); Resilience4j does the rest: a
 * {@link Bulkhead} bounds the calls in flight, a {@link Retry} repeats a failed attempt on another replica when that
 * is safe ({@link CallSafety}), and a {@link CircuitBreaker} per replica ejects one that refuses connections (at
 * once) or keeps failing or losing hedges (by failure rate) until a trial call after its wait succeeds. Each attempt
 * waits at most the service's timeout (the HTTP client's response timeout); idempotent attempts may be hedged
 * ({@link Hedging}). A call no
 * replica could serve ends in {@link ServiceUnavailableException} (503); a replica's 4xx passes to the caller as
 * {@link RestClientResponseException}.
 */
public final class ReplicaClient {

    private static final Logger log = LoggerFactory.getLogger(ReplicaClient.class);
    /** The first choice waits for the first health-checked list at most this long. */
    private static final Duration CHOICE_WAIT = Duration.ofSeconds(5);
    /** Choices an attempt makes past replicas whose breakers are open before it gives up. */
    private static final int MAX_CHOICES = 3;

    private final String serviceId;
    private final ClientSettings settings;
    private final ReactiveLoadBalancer<ServiceInstance> loadBalancer;
    private final Function<URI, RestClient> clients;
    private final CircuitBreakerRegistry breakers;
    private final Retry retry;
    private final Bulkhead bulkhead;
    private final Bulkhead hedgeBudget;
    private final Hedging hedging;
    private final MeterRegistry meters;
    /** Every replica discovery knows, admitted or not: where a service that waits for replicas looks when none is. */
    private final Supplier<List<ServiceInstance>> known;

    private final AtomicInteger nextKnown = new AtomicInteger();
    private final Map<URI, RestClient> byReplica = new ConcurrentHashMap<>();

    ReplicaClient(
            String serviceId,
            ClientSettings settings,
            ReactiveLoadBalancer<ServiceInstance> loadBalancer,
            Function<URI, RestClient> clients,
            CircuitBreakerRegistry breakers,
            Retry retry,
            Bulkhead bulkhead,
            Bulkhead hedgeBudget,
            Hedging hedging,
            MeterRegistry meters,
            Supplier<List<ServiceInstance>> known) {
        this.serviceId = serviceId;
        this.settings = settings;
        this.loadBalancer = loadBalancer;
        this.clients = clients;
        this.breakers = breakers;
        this.retry = retry;
        this.bulkhead = bulkhead;
        this.hedgeBudget = hedgeBudget;
        this.hedging = hedging;
        this.meters = meters;
        this.known = known;
    }

    public String serviceId() {
        return serviceId;
    }

    public ClientSettings settings() {
        return settings;
    }

    public <T> T call(CallSafety safety, Replica.Attempt<T> attempt) {
        if (!bulkhead.tryAcquirePermission()) {
            meters.counter("agora.client.calls.rejected", "service", serviceId).increment();
            throw new ServiceUnavailableException(serviceId, serviceId + " has too many calls in flight");
        }
        Call<T> call = new Call<>(safety, attempt);
        try {
            return retry.executeSupplier(call::attempt);
        } catch (Failed | Retryable failed) {
            log.debug("{} failed after {} attempt(s)", serviceId, call.attempts, failed.getCause());
            throw unavailable(failed.getMessage());
        } finally {
            bulkhead.onComplete();
        }
    }

    private ServiceUnavailableException unavailable(String why) {
        return new ServiceUnavailableException(serviceId, serviceId + " is unavailable: " + why);
    }

    /** Hedges in flight for this service's calls. */
    Bulkhead hedgeBudget() {
        return hedgeBudget;
    }

    /** The breaker of one replica: its state is whether the replica is ejected. */
    CircuitBreaker breaker(URI replica) {
        return breakers.circuitBreaker(serviceId + "@" + replica, serviceId);
    }

    /** The replica for the next attempt, other than {@code previous} while there is another; null when none. */
    ServiceInstance choose(ServiceInstance previous) {
        Request<?> request = previous == null
                ? ReactiveLoadBalancer.REQUEST
                : new DefaultRequest<>(new RetryableRequestContext(previous));
        Response<ServiceInstance> chosen =
                Mono.from(loadBalancer.choose(request)).block(CHOICE_WAIT);
        return chosen != null && chosen.hasServer() ? chosen.getServer() : null;
    }

    /**
     * The replicas discovery knows, in turn, {@code previous} last: for a service that waits for replicas
     * ({@link ClientSettings#retryInterval()}) when none is admitted. A standby answers such a call with a refusal that
     * applied nothing, so a successor is found by calling as soon as it serves, not one health check later; a replica
     * that refused connections or let an attempt time out is passed over by its open breaker.
     */
    List<ServiceInstance> knownInTurn(ServiceInstance previous) {
        List<ServiceInstance> all = known.get();
        if (all.isEmpty()) return all;
        int start = Math.floorMod(nextKnown.getAndIncrement(), all.size());
        List<ServiceInstance> turn = new ArrayList<>(all.size());
        ServiceInstance last = null;
        for (int i = 0; i < all.size(); i++) {
            ServiceInstance candidate = all.get((start + i) % all.size());
            if (previous != null && candidate.getUri().equals(previous.getUri())) last = candidate;
            else turn.add(candidate);
        }
        if (last != null) turn.add(last);
        return turn;
    }

    Replica replica(ServiceInstance instance) {
        URI uri = instance.getUri();
        return new Replica(serviceId, uri, byReplica.computeIfAbsent(uri, clients));
    }

    /**
     * An attempt failed in a way that says the replica did not do the job (refused, reset, timed out, 5xx, cut
     * off, its breaker open), and the call may be repeated elsewhere.
     */
    static final class Retryable extends RuntimeException {
        final Failure failure;

        Retryable(Failure failure, String message, Throwable cause) {
            super(message, cause, false, false);
            this.failure = failure;
        }
    }

    /** The call cannot go on: no replica, no time left, or an outcome unknown that must not be repeated. */
    static final class Failed extends RuntimeException {
        Failed(String message, Throwable cause) {
            super(message, cause, false, false);
        }
    }

    /** One call: its attempts, each chosen and bounded anew. */
    final class Call<T> {

        final CallSafety safety;
        final Replica.Attempt<T> attempt;
        final long started = System.nanoTime();
        int attempts;
        ServiceInstance previous;
        Failure lastFailure;

        Call(CallSafety safety, Replica.Attempt<T> attempt) {
            this.safety = safety;
            this.attempt = attempt;
        }

        ReplicaClient client() {
            return ReplicaClient.this;
        }

        /** One attempt, as Resilience4j's {@code Retry} runs it. */
        T attempt() {
            if (++attempts > 1) {
                meters.counter("agora.client.failovers", "service", serviceId).increment();
                FailoverNotice.record(serviceId, FailoverNotice.Event.RETRY, lastFailure, System.nanoTime() - started);
            }
            ServiceInstance instance = null;
            CircuitBreaker breaker = null;
            // A replica whose breaker is open is passed over without an attempt; its breaker lets a trial call
            // through once its wait is over.
            for (int choices = 0; choices < MAX_CHOICES && breaker == null; choices++) {
                instance = choose(previous);
                if (instance == null) break;
                previous = instance;
                CircuitBreaker candidate = breaker(instance.getUri());
                if (candidate.tryAcquirePermission()) breaker = candidate;
            }
            if (breaker == null && settings.waitsForReplicas()) {
                for (ServiceInstance candidate : knownInTurn(previous)) {
                    CircuitBreaker candidateBreaker = breaker(candidate.getUri());
                    if (candidateBreaker.tryAcquirePermission()) {
                        instance = candidate;
                        previous = candidate;
                        breaker = candidateBreaker;
                        break;
                    }
                }
            }
            if (breaker == null) {
                if (settings.waitsForReplicas()) {
                    // Nothing was sent: a successor about to be ready may be admitted by the next look.
                    lastFailure = Failure.CONNECT;
                    throw new Retryable(Failure.CONNECT, "no replica is available", null);
                }
                throw new Failed("no replica is available", null);
            }
            if (safety == CallSafety.IDEMPOTENT && settings.hedging()) {
                return hedging.race(this, instance, breaker, settings.hedgeAfter());
            }
            return once(instance, breaker, new AttemptScope());
        }

        /**
         * Runs the attempt on {@code instance} on this thread and tells its breaker how it went. An attempt that
         * was aborted because a hedge answered first lost the race: that counts against its replica too (a frozen
         * replica loses every race).
         */
        T once(ServiceInstance instance, CircuitBreaker breaker, AttemptScope scope) {
            long began = System.nanoTime();
            scope.enter();
            try {
                T result = attempt.call(replica(instance));
                breaker.onSuccess(System.nanoTime() - began, TimeUnit.NANOSECONDS);
                return result;
            } catch (RuntimeException error) {
                long took = System.nanoTime() - began;
                if (scope.aborted()) {
                    breaker.onError(took, TimeUnit.NANOSECONDS, error);
                    throw new Hedging.Overtaken(error);
                }
                Failure failure = Failure.classify(error);
                if (failure == null) {
                    // A 4xx is the replica doing its job; anything else says nothing about it.
                    if (error instanceof RestClientResponseException) {
                        breaker.onSuccess(took, TimeUnit.NANOSECONDS);
                    } else {
                        breaker.releasePermission();
                    }
                    throw error;
                }
                if (failure == Failure.CONNECT || (failure == Failure.IO && settings.waitsForReplicas())) {
                    // A service that waits for replicas has one serving at a time, which answers in time: one that
                    // did not is frozen or dying, and is passed over until its breaker lets a trial call through.
                    eject(breaker, error);
                } else if (failure == Failure.REFUSED) {
                    // Up and answering, only not the one serving now: its health checks take it out, not its breaker.
                    breaker.releasePermission();
                } else {
                    breaker.onError(took, TimeUnit.NANOSECONDS, error);
                }
                throw retryable(failure, instance.getUri() + " failed: " + error.getMessage(), error);
            } finally {
                scope.leave();
            }
        }

        RuntimeException retryable(Failure failure, String message, Throwable cause) {
            lastFailure = failure;
            if (!failure.retryable(safety)) {
                return new Failed("it failed while handling the request; its outcome is unknown", cause);
            }
            return new Retryable(failure, message, cause);
        }
    }

    /** A replica that refused a connection is down: it gets no calls until its breaker's wait is over. */
    private void eject(CircuitBreaker breaker, Throwable error) {
        CircuitBreaker.State state = breaker.getState();
        if (state == CircuitBreaker.State.CLOSED || state == CircuitBreaker.State.HALF_OPEN) {
            try {
                breaker.transitionToOpenState();
                log.warn("Ejected {} ({})", breaker.getName(), error.getMessage());
            } catch (RuntimeException raced) {
                // another call ejected it at the same moment
            }
        } else {
            breaker.releasePermission();
        }
    }
}
