package dev.agora.frontend.cluster;

import java.time.Duration;
import java.util.OptionalDouble;

/**
 * Waits on a frontend's {@code agora.client.instances.admitted} gauge, read over HTTP as perf's failover experiment
 * reads it: how many replicas of a service its load balancer offers.
 */
public final class AdmittedInstances {

    private AdmittedInstances() {}

    /**
     * Milliseconds from {@code since} (a {@link System#nanoTime()}) until {@code frontend}'s gauge for {@code service}
     * reads {@code count}; fails when it does not within {@code within} of {@code since}. A 404 is waited out (the
     * gauge appears with the service's client); any other answer but 200 fails at once.
     */
    public static long await(Http http, String frontend, String service, int count, long since, Duration within) {
        String gauge = frontend + "/actuator/metrics/agora.client.instances.admitted?tag=service:" + service;
        Http.Response answer;
        do {
            answer = http.get(gauge);
            OptionalDouble admitted = Metrics.firstMeasurement(answer);
            if (admitted.isPresent() && admitted.getAsDouble() == count) {
                return (System.nanoTime() - since) / 1_000_000;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        } while (System.nanoTime() - since < within.toNanos());
        throw new AssertionError(service + " instances admitted by " + frontend + " not " + count + " within " + within
                + "; last answer " + answer);
    }
}
