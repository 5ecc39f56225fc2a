package dev.agora.common.client;

import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.web.client.RestClient;

/**
 * One replica of a service as the caller sees it: where it is, a client bound to it, how many calls are in
 * flight, and whether it is currently ejected from the choice. Ejection is immediate on a connection
 * failure or timeout (and after a run of 5xx answers); only a health probe that started after the ejection
 * readmits it, so a replica that died after answering a probe is not readmitted by that stale answer.
 */
public final class Instance {

    private final String serviceId;
    private final URI uri;
    private final RestClient client;
    private final AtomicInteger outstanding = new AtomicInteger();
    private final AtomicInteger consecutiveServerErrors = new AtomicInteger();
    private final AtomicInteger consecutiveProbeFailures = new AtomicInteger();
    private volatile boolean ejected;
    private volatile long ejectedAtNanos;

    Instance(String serviceId, URI uri, RestClient client) {
        this.serviceId = serviceId;
        this.uri = uri;
        this.client = client;
    }

    public String serviceId() {
        return serviceId;
    }

    public URI uri() {
        return uri;
    }

    public RestClient client() {
        return client;
    }

    public boolean admitted() {
        return !ejected;
    }

    public int outstanding() {
        return outstanding.get();
    }

    void callStarted() {
        outstanding.incrementAndGet();
    }

    void callEnded() {
        outstanding.decrementAndGet();
    }

    void answered() {
        consecutiveServerErrors.set(0);
    }

    /** Records a failed call; returns true when this failure ejected the replica. */
    boolean failed(Failure failure, int serverErrorsToEject, long nowNanos) {
        if (failure == Failure.SERVER_ERROR && consecutiveServerErrors.incrementAndGet() < serverErrorsToEject) {
            return false;
        }
        return eject(nowNanos);
    }

    /** Takes the replica out of the choice; returns true when it was admitted until now. */
    boolean eject(long nowNanos) {
        ejectedAtNanos = nowNanos;
        boolean wasAdmitted = !ejected;
        ejected = true;
        return wasAdmitted;
    }

    /**
     * Records a failed health probe; a refused connection ejects at once, slow or unready answers after a
     * run of them (one slow probe on a busy machine is no reason to drop a replica). Returns true when
     * this probe ejected the replica.
     */
    boolean probeFailed(boolean refused, int failuresToEject, long nowNanos) {
        if (!refused && consecutiveProbeFailures.incrementAndGet() < failuresToEject) return false;
        return eject(nowNanos);
    }

    /** Readmits the replica after a passing probe; returns true when it was ejected until now. */
    boolean probePassed(long probeStartedNanos) {
        consecutiveProbeFailures.set(0);
        if (!ejected || probeStartedNanos - ejectedAtNanos <= 0) return false;
        consecutiveServerErrors.set(0);
        ejected = false;
        return true;
    }

    @Override
    public String toString() {
        return serviceId + "@" + uri + (ejected ? " (ejected)" : "");
    }
}
