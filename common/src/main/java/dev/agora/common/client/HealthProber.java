package dev.agora.common.client;

import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Probes every known replica's readiness once per health interval, in parallel: a replica that refuses
 * the probe (or fails a run of them) is ejected, an ejected replica whose probe passes is readmitted. Ejected
 * replicas are probed {@value #EJECTED_CHECKS_PER_INTERVAL} times as often, so a restarted one is back in
 * rotation within a fraction of the interval of being ready (probing a dead one costs a refused connect).
 * Also refreshes the instance lists, so new replicas join within one interval. Probes use their own small HTTP
 * client, so they never queue behind the calls they judge.
 */
public final class HealthProber implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(HealthProber.class);

    private final FailoverClient failover;
    private final FailoverSettings settings;
    private final HttpClient http;
    private final ScheduledExecutorService scheduler;
    private long ticks;

    static final int EJECTED_CHECKS_PER_INTERVAL = 5;

    public HealthProber(FailoverClient failover) {
        this.failover = failover;
        this.settings = failover.settings();
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.healthTimeout())
                .build();
        this.scheduler = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("health-prober").daemon().factory());
    }

    /** Starts probing in the background, the first round at once. */
    public HealthProber start() {
        long tick = Math.max(1, settings.healthInterval().toMillis() / EJECTED_CHECKS_PER_INTERVAL);
        // At a fixed rate, without waiting for slow probes: a frozen replica's probe timing out delays neither
        // the next round nor the readmission of the others (a replica is never probed twice at once).
        scheduler.scheduleAtFixedRate(this::tickSafely, 0, tick, TimeUnit.MILLISECONDS);
        return this;
    }

    /** One round over every replica of every registered service; returns when all probes are done. */
    public void probeRound() {
        CompletableFuture.allOf(startRound(true).toArray(CompletableFuture[]::new))
                .join();
    }

    /** Every replica ({@code all}), or only the ejected ones. */
    private List<CompletableFuture<Void>> startRound(boolean all) {
        if (all) failover.refreshInstanceLists();
        List<CompletableFuture<Void>> probes = new ArrayList<>();
        for (ServicePool pool : failover.pools()) {
            for (Instance instance : pool.instances()) {
                if ((all || !instance.admitted()) && instance.startProbe()) probes.add(probe(pool, instance));
            }
        }
        return probes;
    }

    private CompletableFuture<Void> probe(ServicePool pool, Instance instance) {
        HttpRequest request = HttpRequest.newBuilder(instance.uri().resolve(URI.create(settings.healthPath())))
                .timeout(settings.healthTimeout())
                .GET()
                .build();
        long started = System.nanoTime();
        return http.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                .<Void>handle((response, error) -> {
                    if (error == null && response.statusCode() == 200) {
                        if (instance.probePassed(started)) {
                            log.info("Readmitted {} replica {}", instance.serviceId(), instance.uri());
                        }
                    } else if (instance.probeFailed(
                            refused(error),
                            // No answer in time is ambiguous on a starved machine: it never ejects the last admitted
                            // replica (calls still do, by their own timeouts). A refusal or a "not ready" answer does.
                            error != null && !pool.othersAdmitted(instance),
                            settings.probeFailuresToEject(),
                            System.nanoTime())) {
                        failover.ejected(instance, "health probe", null);
                    }
                    return null;
                })
                .whenComplete((ignored, error) -> instance.probeEnded());
    }

    private static boolean refused(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof ConnectException) {
                return true;
            }
        }
        return false;
    }

    private void tickSafely() {
        try {
            startRound(ticks++ % EJECTED_CHECKS_PER_INTERVAL == 0);
        } catch (RuntimeException e) {
            log.warn("Health probe round failed: {}", e.toString());
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        http.shutdownNow();
    }
}
