package dev.agora.common.client;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.Retry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
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
 *
 * <p>Breakers and health checks only steer calls; they never answer one by themselves. When every replica the load
 * balancer offers is refused by its breaker, or the health-checked list is empty while replicas are configured, the
 * attempt takes the one fallback path ({@link Fallback}; Envoy's panic mode; {@code agora.client.last.resorts}): to a
 * replica that either signal says is up (a health-checked replica whatever its breaker says, or, when none passed its
 * health check, a configured one whose breaker is closed and whose readiness probe did not answer "not ready"), or,
 * for a service that waits for replicas, to any replica discovery knows whose breaker lets the call through. So a
 * 503 means an attempt really failed, no replica is up by either signal, or the bulkhead is full, never that every
 * breaker happened to be open at once (a killed replica ejected while the live one lost hedges on a starved machine)
 * or that every probe timed out.
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
    private final Supplier<Fallback> fallbacks;
    private final AtomicInteger fallbackTurn = new AtomicInteger();
    private final Map<URI, RestClient> byReplica = new ConcurrentHashMap<>();
    /**
     * What an attempt needs of its replica, made once per instance instead of on every attempt: Spring Cloud's
     * {@code ServiceInstance.getUri()} parses a new URI on each call, and an attempt asked for it several times.
     * Bounded, as discovery may name ever new instances over a long life.
     */
    private final Cache<ServiceInstance, Endpoint> endpoints =
            Caffeine.newBuilder().maximumSize(1_000).build();

    private final Counter rejectedCalls;
    private final Counter poolTimeouts;
    private final Counter lastResorts;
    private final Counter failovers;

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
            Supplier<Fallback> fallbacks) {
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
        this.fallbacks = fallbacks;
        // Registered now, so a scrape lists them before the first refusal, and counted without a look-up by name.
        this.rejectedCalls = meters.counter("agora.client.calls.rejected", "service", serviceId);
        this.poolTimeouts = meters.counter("agora.client.pool.timeouts", "service", serviceId);
        this.lastResorts = meters.counter("agora.client.last.resorts", "service", serviceId);
        this.failovers = meters.counter("agora.client.failovers", "service", serviceId);
        meters.counter("agora.client.hedges.denied", "service", serviceId);
    }

    public String serviceId() {
        return serviceId;
    }

    public ClientSettings settings() {
        return settings;
    }

    public <T> T call(CallSafety safety, Replica.Attempt<T> attempt) {
        if (!bulkhead.tryAcquirePermission()) {
            rejectedCalls.increment();
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

    /** An instance's breaker and what attempts on it call with (its URI among them). */
    record Endpoint(CircuitBreaker breaker, Replica replica) {}

    Endpoint endpoint(ServiceInstance instance) {
        return endpoints.get(instance, ignored -> {
            URI uri = instance.getUri();
            return new Endpoint(breaker(uri), new Replica(serviceId, uri, byReplica.computeIfAbsent(uri, clients)));
        });
    }

    /** The replica for the next attempt, other than {@code previous} while there is another; null when none. */
    ServiceInstance choose(ServiceInstance previous) {
        Request<?> request = previous == null
                ? ReactiveLoadBalancer.REQUEST
                : new DefaultRequest<>(new RetryableRequestContext(previous));
        Response<ServiceInstance> chosen;
        try {
            chosen = Mono.from(loadBalancer.choose(request)).block(CHOICE_WAIT);
        } catch (RuntimeException noListYet) {
            // block's timeout: no health-checked list within the wait
            log.debug("{}: no instance list within {}", serviceId, CHOICE_WAIT, noListYet);
            return null;
        }
        return chosen != null && chosen.hasServer() ? chosen.getServer() : null;
    }

    /**
     * The one fallback of an attempt for which the load balancer offered no replica whose breaker let it through:
     * the {@link Fallback}'s candidates in turn, {@code failed} (this call's last failed replica) set aside, and of
     * those the first whose breaker lets a call through and that the fallback {@linkplain Fallback#admits admits};
     * when there is none, a health-checked candidate gets the attempt without its breaker's permission (its outcome
     * is still recorded). When {@code refused} ({@code failed} refused the call's connection: it is down, whatever its
     * last health check said), {@code failed} gets no such attempt, and a configured replica other than it does, as
     * the last step. Null when there is no such replica, or when {@code waited} (an attempt of this call reached a
     * replica and failed: timed out, reset, 5xx) and no candidate passed its health check: frozen replicas cost a call
     * one timeout, as without a fallback.
     */
    private Choice fallback(ServiceInstance failed, boolean waited, boolean refused) {
        Fallback fallback = fallbacks.get();
        if (waited && !fallback.waitsForReplicas() && fallback.healthChecked().isEmpty()) return null;
        List<ServiceInstance> inTurn = fallback.inTurn(fallbackTurn.getAndIncrement(), failed);
        for (ServiceInstance candidate : inTurn) {
            CircuitBreaker breaker = endpoint(candidate).breaker();
            if (fallback.admits(candidate, breaker) && breaker.tryAcquirePermission()) {
                return new Choice(candidate, breaker, true);
            }
        }
        for (ServiceInstance candidate : inTurn) {
            if (refused && sameReplica(candidate, failed)) continue;
            if (fallback.healthChecked().contains(candidate.getUri())) {
                return new Choice(candidate, endpoint(candidate).breaker(), false);
            }
        }
        if (refused && !fallback.waitsForReplicas()) {
            // The list offered only the replica that just refused this call's connection (killed since its last
            // health check) or nothing: a configured one left out of it, whose probe may have timed out on a starved
            // machine and whose breaker may have opened there, may well serve; the one that refused certainly does not.
            for (ServiceInstance candidate : fallback.configured()) {
                if (!sameReplica(candidate, failed)) {
                    return new Choice(candidate, endpoint(candidate).breaker(), false);
                }
            }
        }
        return null;
    }

    private static boolean sameReplica(ServiceInstance candidate, ServiceInstance other) {
        return other != null && candidate.getUri().equals(other.getUri());
    }

    Replica replica(ServiceInstance instance) {
        return endpoint(instance).replica();
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

    /**
     * Where attempts go when the load balancer offers none whose breaker lets them through (Envoy's panic mode;
     * {@code agora.client.last.resorts}). For a service that waits for replicas ({@link
     * ClientSettings#retryInterval()}) the candidates are every replica discovery knows, admitted or not: only one
     * serves at a time, a standby refuses with nothing applied, so calling them in turn finds a successor as soon as it
     * serves rather than one health check later; their breakers pass over those that refused connections or let an
     * attempt time out. For any other service they are the health-checked replicas or, when none passed its health
     * check, the configured ones that did not answer their readiness probe with "not ready" (one whose probe timed
     * out on a starved machine may well serve).
     *
     * @param candidates where the attempt may go, in discovery's order
     * @param healthChecked the candidates whose health check passed: they get an attempt whatever their breakers say
     *     when no candidate's breaker lets one through
     * @param waitsForReplicas whether {@code candidates} are every known replica of a service that waits for one
     * @param configured every replica discovery knows that did not answer its readiness probe with "not ready": where
     *     an attempt goes once the call's last one found its replica refusing connections and no candidate is left
     */
    record Fallback(
            List<ServiceInstance> candidates,
            Set<URI> healthChecked,
            boolean waitsForReplicas,
            List<ServiceInstance> configured) {

        Fallback {
            candidates = List.copyOf(candidates);
            healthChecked = Set.copyOf(healthChecked);
            configured = List.copyOf(configured);
        }

        Fallback(List<ServiceInstance> candidates, Set<URI> healthChecked, boolean waitsForReplicas) {
            this(candidates, healthChecked, waitsForReplicas, candidates);
        }

        /**
         * Whether {@code candidate}, with {@code breaker}, may have an attempt when its breaker lets it through:
         * always when it passed its health check or the service waits for replicas (a half-open breaker's trial
         * call finds out whether it serves again); otherwise only while its breaker is closed, so that a replica
         * both signals call down (killed or frozen) gets no attempt.
         */
        boolean admits(ServiceInstance candidate, CircuitBreaker breaker) {
            return waitsForReplicas
                    || healthChecked.contains(candidate.getUri())
                    || breaker.getState() == CircuitBreaker.State.CLOSED;
        }

        /**
         * The candidates starting at {@code turn} (round robin), {@code failed} set aside: last for a service that
         * waits for replicas (a standby that refused may be the one that serves when the call looks again), left
         * out for any other while another candidate is left (the call's next attempt goes elsewhere).
         */
        List<ServiceInstance> inTurn(int turn, ServiceInstance failed) {
            if (candidates.isEmpty()) return candidates;
            int start = Math.floorMod(turn, candidates.size());
            List<ServiceInstance> inTurn = new ArrayList<>(candidates.size());
            ServiceInstance setAside = null;
            for (int i = 0; i < candidates.size(); i++) {
                ServiceInstance candidate = candidates.get((start + i) % candidates.size());
                if (sameReplica(candidate, failed)) setAside = candidate;
                else inTurn.add(candidate);
            }
            if (setAside != null && (waitsForReplicas || inTurn.isEmpty())) inTurn.add(setAside);
            return inTurn;
        }
    }

    /**
     * The replica of one attempt and its breaker; {@code permitted} when the breaker let the attempt through (its
     * permission must then be recorded or released), false for a last resort it refused.
     */
    record Choice(ServiceInstance instance, CircuitBreaker breaker, boolean permitted) {}

    /** One call: its attempts, each chosen and bounded anew. */
    final class Call<T> {

        final CallSafety safety;
        final Replica.Attempt<T> attempt;
        final long started = System.nanoTime();
        int attempts;
        ServiceInstance previous;
        volatile ServiceInstance lastFailed;
        volatile Failure lastFailure;

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
                failovers.increment();
                FailoverNotice.record(serviceId, FailoverNotice.Event.RETRY, lastFailure, System.nanoTime() - started);
            }
            Choice choice = null;
            // A replica whose breaker is open is passed over without an attempt; its breaker lets a trial call
            // through once its wait is over.
            for (int choices = 0; choices < MAX_CHOICES && choice == null; choices++) {
                ServiceInstance instance = choose(previous);
                if (instance == null) break;
                previous = instance;
                // Not the replica that just failed this call: when the load balancer offers only it besides one whose
                // breaker refuses (a killed replica still listed, a live one whose breaker opened on a starved box),
                // the fallback sets it aside and tries the other, rather than spend the call's attempts on the dead
                // one.
                if (sameReplica(instance, lastFailed)) continue;
                CircuitBreaker candidate = endpoint(instance).breaker();
                if (candidate.tryAcquirePermission()) choice = new Choice(instance, candidate, true);
            }
            if (choice == null) {
                choice = fallback(
                        lastFailed,
                        lastFailure == Failure.IO || lastFailure == Failure.SERVER_ERROR,
                        lastFailure == Failure.CONNECT);
                if (choice == null) {
                    log.debug("{}: attempt {} found no replica", serviceId, attempts);
                    if (settings.waitsForReplicas()) {
                        // Nothing was sent: a successor about to be ready may be admitted by the next look.
                        lastFailure = Failure.CONNECT;
                        throw new Retryable(Failure.CONNECT, "no replica is available", null);
                    }
                    throw new Failed("no replica is available", null);
                }
                lastResorts.increment();
                previous = choice.instance();
            }
            if (log.isDebugEnabled()) {
                log.debug(
                        "{}: attempt {} at {} ms to {} (breaker {}, permitted {})",
                        serviceId,
                        attempts,
                        (System.nanoTime() - started) / 1_000_000,
                        choice.instance().getUri(),
                        choice.breaker().getState(),
                        choice.permitted());
            }
            if (safety == CallSafety.IDEMPOTENT && settings.hedging()) {
                return hedging.race(this, choice, settings.hedgeAfter());
            }
            // A call that cannot be repeated waits for the replica's own answer (ClientSettings.notIdempotentTimeout).
            return once(choice, new AttemptScope(settings.timeout(safety)));
        }

        /**
         * Runs the attempt on {@code instance} on this thread and tells its breaker how it went. An attempt that
         * was aborted because a hedge answered first lost the race: that counts against its replica too (a frozen
         * replica loses every race).
         */
        T once(Choice choice, AttemptScope scope) {
            ServiceInstance instance = choice.instance();
            CircuitBreaker breaker = choice.breaker();
            long began = System.nanoTime();
            // Every permission is recorded or released, whatever the attempt throws (an Error too): a half-open
            // breaker whose trial permission leaked would refuse every call until its maximum wait.
            boolean settled = !choice.permitted();
            scope.enter();
            try {
                T result = attempt.call(replica(instance));
                breaker.onSuccess(System.nanoTime() - began, TimeUnit.NANOSECONDS);
                settled = true;
                return result;
            } catch (RuntimeException error) {
                long took = System.nanoTime() - began;
                if (scope.aborted()) {
                    breaker.onError(took, TimeUnit.NANOSECONDS, error);
                    settled = true;
                    throw new Hedging.Overtaken(error);
                }
                if (waitedForAPooledConnection(error)) {
                    poolTimeouts.increment();
                }
                Failure failure = Failure.classify(error);
                if (failure == null) {
                    // A 4xx is the replica doing its job; anything else says nothing about it.
                    if (error instanceof RestClientResponseException) {
                        breaker.onSuccess(took, TimeUnit.NANOSECONDS);
                        settled = true;
                    }
                    throw error;
                }
                lastFailed = instance;
                if (log.isDebugEnabled()) {
                    log.debug(
                            "{}: attempt {} to {} failed {} after {} ms: {}",
                            serviceId,
                            attempts,
                            instance.getUri(),
                            failure,
                            took / 1_000_000,
                            error.toString());
                }
                if (failure == Failure.CONNECT || (failure == Failure.IO && settings.waitsForReplicas())) {
                    // A service that waits for replicas has one serving at a time, which answers in time: one that
                    // did not is frozen or dying, and is passed over until its breaker lets a trial call through.
                    settled |= eject(breaker, error);
                } else if (failure == Failure.REFUSED) {
                    // Up and answering in time, only not the one serving now: its health checks keep it out of the
                    // list, not its breaker, which records an answer. So the breaker of a standby that was ejected
                    // (killed, restarted) closes on its refusals instead of staying half-open with its two trial
                    // calls, which would hold back every call but two at the moment it takes over.
                    breaker.onSuccess(took, TimeUnit.NANOSECONDS);
                    settled = true;
                } else {
                    breaker.onError(took, TimeUnit.NANOSECONDS, error);
                    settled = true;
                }
                throw retryable(failure, instance.getUri() + " failed: " + error.getMessage(), error);
            } finally {
                scope.leave();
                if (!settled) breaker.releasePermission();
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

    /**
     * The attempt found every pooled connection to the replica busy for its whole timeout. The pool is sized above
     * the bulkhead ({@link PooledHttpClients}), so this is rare; it is counted apart, as it says more about this
     * service's pool than about the replica.
     */
    private static boolean waitedForAPooledConnection(Throwable error) {
        for (Throwable cause = error; cause != null && cause.getCause() != cause; cause = cause.getCause()) {
            if (cause instanceof ConnectionRequestTimeoutException) return true;
        }
        return false;
    }

    /**
     * A replica that refused a connection is down: it gets no calls until its breaker's wait is over. True when
     * the breaker was opened here (a permission of the state it left needs no release).
     */
    private boolean eject(CircuitBreaker breaker, Throwable error) {
        CircuitBreaker.State state = breaker.getState();
        if (state == CircuitBreaker.State.CLOSED || state == CircuitBreaker.State.HALF_OPEN) {
            try {
                breaker.transitionToOpenState();
                log.warn("Ejected {} ({})", breaker.getName(), error.getMessage());
                return true;
            } catch (RuntimeException raced) {
                // another call ejected it at the same moment
            }
        }
        return false;
    }
}
