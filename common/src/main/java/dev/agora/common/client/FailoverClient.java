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
 * timeout is ejected from the choice until a {@link HealthProber health probe} passes again. When no
 * replica can serve the call, it ends quickly in {@link ServiceUnavailableException} (503).
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

    private final Function<String, RestClient> baseClients;
    private final InstanceListSource source;
    private final FailoverSettings settings;
    private final MeterRegistry meters;
    private final Map<String, ServicePool> pools = new ConcurrentHashMap<>();

    public FailoverClient(
            RestClient baseClient, InstanceListSource source, FailoverSettings settings, MeterRegistry meters) {
        this(serviceId -> baseClient, source, settings, meters);
    }

    /**
     * @param baseClients the client (request factory, timeouts, interceptors) to call each service with; a
     *     service whose calls legitimately take longer (it calls further tiers itself) can get a longer
     *     read timeout than the others
     */
    public FailoverClient(
            Function<String, RestClient> baseClients,
            InstanceListSource source,
            FailoverSettings settings,
            MeterRegistry meters) {
        this.baseClients = baseClients;
        this.source = source;
        this.settings = settings;
        this.meters = meters;
    }

    public <T> T call(String serviceId, CallSafety safety, Attempt<T> attempt) {
        ServicePool pool = pool(serviceId);
        List<Instance> tried = new ArrayList<>(settings.maxAttempts());
        RuntimeException lastFailure = null;
        while (tried.size() < settings.maxAttempts()) {
            Instance instance = pool.choose(tried);
            if (instance == null) break;
            if (!tried.isEmpty())
                meters.counter("agora.client.failovers", "service", serviceId).increment();
            tried.add(instance);
            instance.callStarted();
            try {
                T result = attempt.call(instance);
                instance.answered();
                return result;
            } catch (RuntimeException error) {
                Failure failure = Failure.classify(error);
                if (failure == null) {
                    if (error instanceof RestClientResponseException) instance.answered();
                    throw error;
                }
                if (instance.failed(failure, settings.serverErrorsToEject(), System.nanoTime())) {
                    ejected(instance, failure.name().toLowerCase(), error);
                }
                lastFailure = error;
                if (!failure.retryable(safety)) {
                    throw new ServiceUnavailableException(
                            serviceId, serviceId + " failed while handling the request; its outcome is unknown");
                }
            } finally {
                instance.callEnded();
            }
        }
        if (lastFailure != null) {
            log.debug("{} failed on {} replica(s)", serviceId, tried.size(), lastFailure);
        }
        throw new ServiceUnavailableException(serviceId, serviceId + " is unavailable");
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
        ServicePool pool = new ServicePool(serviceId, settings.balancing(), uri -> newInstance(serviceId, uri));
        refresh(pool);
        Gauge.builder("agora.client.instances.admitted", pool, p -> p.instances().stream()
                        .filter(Instance::admitted)
                        .count())
                .tag("service", serviceId)
                .register(meters);
        return pool;
    }

    private Instance newInstance(String serviceId, URI uri) {
        RestClient client =
                baseClients.apply(serviceId).mutate().baseUrl(uri.toString()).build();
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
