package dev.agora.common.client;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientResponseException;

/**
 * Calls replicated services with failover: each call goes to an admitted replica chosen by the
 * {@link BalancingPolicy}; when that replica fails (connection error, timeout, 5xx) the call is repeated at
 * once on a different replica (if {@link CallSafety} allows) and a replica that failed by connection or
 * timeout is ejected from the choice until a {@link HealthProber health probe} passes again. An idempotent
 * call that has no answer after the {@link HedgeDelay hedge delay} (a high percentile of the service's recent
 * answer times, at most the configured delay) is also sent to another replica, and the first answer wins,
 * so a frozen or dying replica costs the hedge delay; a replica that keeps losing such races without answering is
 * ejected as frozen; hedges are limited by a {@link HedgeBudget}, so a slow service is not sent twice its load.
 * Every call ends within its call timeout. When no replica can serve the call, it ends
 * quickly in {@link ServiceUnavailableException} (503). Every repeat and hedge is noted on the response of
 * the request being handled ({@link FailoverNotice}), so a client can tell which requests failover touched.
 *
 * <p>Attempts run on the caller's thread; only hedges (and repeats while a hedge runs) go to pooled threads (see
 * {@link HedgedCall}). A hedge that answers first aborts the caller's attempt, which is why every call goes
 * through an {@link AbortableRequestFactory}.
 *
 * <p>4xx answers are the replica doing its job and pass to the caller unchanged, as
 * {@link RestClientResponseException}.
 */
public final class FailoverClient {

    private static final Logger log = LoggerFactory.getLogger(FailoverClient.class);

    /**
     * One attempt of a call on the chosen replica: {@link Instance#client()} has the replica as base URL;
     * {@link Instance#uri()} is there for callers that build absolute URIs themselves (proxies).
     */
    @FunctionalInterface
    public interface Attempt<T> {
        T call(Instance replica);
    }

    private final RestClient.Builder clients;
    private final Function<String, AbortableRequestFactory> requests;
    private final InstanceListSource source;
    private final FailoverSettings settings;
    private final MeterRegistry meters;
    private final Map<String, ServicePool> pools = new ConcurrentHashMap<>();

    public FailoverClient(
            RestClient.Builder clients,
            AbortableRequestFactory requests,
            InstanceListSource source,
            FailoverSettings settings,
            MeterRegistry meters) {
        this(clients, serviceId -> requests, source, settings, meters);
    }

    /**
     * @param clients interceptors and defaults of every call; the request factory is {@code requests}'
     * @param requests the HTTP client (pool, timeouts) to call each service with, as the factory whose requests
     *     a winning hedge can abort; a service whose calls legitimately take longer (it calls further tiers
     *     itself) can get a longer read timeout than the others
     */
    public FailoverClient(
            RestClient.Builder clients,
            Function<String, AbortableRequestFactory> requests,
            InstanceListSource source,
            FailoverSettings settings,
            MeterRegistry meters) {
        this.clients = clients.clone();
        this.requests = requests;
        this.source = source;
        this.settings = settings;
        this.meters = meters;
    }

    public <T> T call(String serviceId, CallSafety safety, Attempt<T> attempt) {
        ServicePool pool = pool(serviceId);
        long hedgeNanos = pool.hedgeDelay().nanos();
        long started = System.nanoTime();
        long deadline = started + settings.callTimeout(serviceId).toNanos();
        if (safety == CallSafety.IDEMPOTENT && hedgeNanos > 0 && settings.maxAttempts() > 1) {
            return new HedgedCall<>(this, pool, attempt, hedgeNanos, started, deadline).run();
        }
        return sequential(pool, safety, attempt, started, deadline);
    }

    /** One attempt after the other, on the caller's thread: a failed attempt is repeated elsewhere at once. */
    private <T> T sequential(ServicePool pool, CallSafety safety, Attempt<T> attempt, long started, long deadline) {
        String serviceId = pool.serviceId();
        List<Instance> tried = new ArrayList<>(settings.maxAttempts());
        Outcome<T> lastFailed = null;
        while (tried.size() < settings.maxAttempts() && System.nanoTime() - deadline < 0) {
            Instance instance = pool.choose(tried, true);
            if (instance == null) break;
            if (lastFailed != null) failedOver(serviceId, lastFailed, started);
            tried.add(instance);
            Outcome<T> outcome = attempt(pool, instance, attempt, null);
            if (outcome.succeeded()) return outcome.result();
            if (outcome.answered()) throw outcome.error();
            lastFailed = outcome;
            if (!outcome.failure().retryable(safety)) {
                throw new ServiceUnavailableException(
                        serviceId, serviceId + " failed while handling the request; its outcome is unknown");
            }
        }
        throw unavailable(serviceId, tried.size(), lastFailed);
    }

    /**
     * Runs one attempt on {@code instance} and records what it says about the replica's health.
     *
     * @param abort lets another thread end the attempt (null when none will): an attempt that fails after it was
     *     aborted was ended on purpose and says nothing about the replica
     */
    <T> Outcome<T> attempt(ServicePool pool, Instance instance, Attempt<T> attempt, AttemptAbort abort) {
        instance.callStarted();
        long started = System.nanoTime();
        if (abort != null) abort.enter();
        try {
            T result = attempt.call(instance);
            answered(pool, instance, started);
            return new Outcome<>(result, null, null, false);
        } catch (RuntimeException error) {
            if (abort != null && abort.aborted()) return new Outcome<>(null, error, null, true);
            Failure failure = Failure.classify(error);
            if (failure == null) {
                if (error instanceof RestClientResponseException) answered(pool, instance, started);
                return new Outcome<>(null, error, null, false);
            }
            if (instance.failed(failure, settings.serverErrorsToEject(), System.nanoTime())) {
                ejected(instance, failure.name().toLowerCase(), error);
            }
            return new Outcome<>(null, error, failure, false);
        } finally {
            if (abort != null) abort.leave();
            instance.callEnded();
        }
    }

    private static void answered(ServicePool pool, Instance instance, long started) {
        instance.answered();
        pool.hedgeDelay().answered(System.nanoTime() - started);
        pool.hedgeBudget().answered();
    }

    /**
     * How one attempt ended: a result, an answer to pass on ({@code error} without {@code failure}: a 4xx, or
     * an error that says nothing about the replica), a failure that may be repeated elsewhere, or abandoned (ended
     * on purpose because another attempt answered first or the call ran out of time).
     */
    record Outcome<T>(T result, RuntimeException error, Failure failure, boolean abandoned) {
        boolean succeeded() {
            return error == null;
        }

        boolean answered() {
            return error != null && failure == null && !abandoned;
        }
    }

    /** The call is repeated on another replica because {@code previous} failed. */
    void failedOver(String serviceId, Outcome<?> previous, long callStarted) {
        meters.counter("agora.client.failovers", "service", serviceId).increment();
        FailoverNotice.record(
                serviceId, FailoverNotice.Event.RETRY, previous.failure(), System.nanoTime() - callStarted);
    }

    static ServiceUnavailableException unavailable(String serviceId, int tried, Outcome<?> lastFailed) {
        if (lastFailed != null) log.debug("{} failed on {} replica(s)", serviceId, tried, lastFailed.error());
        return new ServiceUnavailableException(serviceId, serviceId + " is unavailable");
    }

    /**
     * The replicas of a service, creating its pool on first use. Services a caller will use should be
     * registered at start so that health probes cover them before the first call.
     */
    public List<Instance> instances(String serviceId) {
        return pool(serviceId).instances();
    }

    public FailoverSettings settings() {
        return settings;
    }

    MeterRegistry meters() {
        return meters;
    }

    List<ServicePool> pools() {
        return List.copyOf(pools.values());
    }

    /** Re-reads every service's instance list from the source; a failing source keeps the last list. */
    void refreshInstanceLists() {
        for (ServicePool pool : pools.values()) refresh(pool);
    }

    void ejected(Instance instance, String cause, Throwable error) {
        meters.counter("agora.client.ejections", "service", instance.serviceId(), "cause", cause)
                .increment();
        log.warn(
                "Ejected {} replica {} ({}{})",
                instance.serviceId(),
                instance.uri(),
                cause,
                error == null ? "" : ": " + error.getMessage());
    }

    private ServicePool pool(String serviceId) {
        ServicePool pool = pools.get(serviceId);
        if (pool != null) return pool;
        return pools.computeIfAbsent(serviceId, this::newPool);
    }

    private ServicePool newPool(String serviceId) {
        HedgeDelay hedgeDelay = new HedgeDelay(
                settings.hedgePercentile(),
                settings.hedgeFloor().toNanos(),
                settings.hedgeDelay(serviceId).toNanos());
        HedgeBudget hedgeBudget = new HedgeBudget(settings.hedgeBudgetPercent(), settings.hedgeBudgetBurst());
        ServicePool pool = new ServicePool(
                serviceId, settings.balancing(), hedgeDelay, hedgeBudget, uri -> newInstance(serviceId, uri));
        refresh(pool);
        Gauge.builder("agora.client.instances.admitted", pool, p -> p.instances().stream()
                        .filter(Instance::admitted)
                        .count())
                .tag("service", serviceId)
                .register(meters);
        Gauge.builder("agora.client.hedge.delay", hedgeDelay, delay -> delay.nanos() / 1e6)
                .tag("service", serviceId)
                .baseUnit("milliseconds")
                .register(meters);
        Gauge.builder("agora.client.hedge.budget", hedgeBudget, HedgeBudget::available)
                .tag("service", serviceId)
                .description("Hedges the service's calls may still send")
                .register(meters);
        return pool;
    }

    private Instance newInstance(String serviceId, URI uri) {
        RestClient client = clients.clone()
                .requestFactory(requests.apply(serviceId))
                .baseUrl(uri.toString())
                .build();
        Instance instance = new Instance(serviceId, uri, client);
        Gauge.builder("agora.client.instance.outstanding", instance, Instance::outstanding)
                .tags("service", serviceId, "instance", uri.toString())
                .register(meters);
        Gauge.builder("agora.client.instance.admitted", instance, i -> i.admitted() ? 1 : 0)
                .tags("service", serviceId, "instance", uri.toString())
                .register(meters);
        return instance;
    }

    private void refresh(ServicePool pool) {
        try {
            pool.update(source.instances(pool.serviceId()));
        } catch (RuntimeException e) {
            log.warn("Could not refresh the instance list of {}: {}", pool.serviceId(), e.toString());
        }
    }
}
