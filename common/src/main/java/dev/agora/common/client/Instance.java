package dev.agora.common.client;

import java.net.URI;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.web.client.RestClient;

/**
 * One replica of a service as the caller sees it: where it is, a client bound to it, how many calls are in
 * flight, and whether it is currently ejected from the choice. Ejection is immediate on a connection
 * failure or timeout (and after a run of 5xx answers, or of hedges it lost without answering: frozen);
 * only a health probe that started after the ejection readmits it, so a replica that died after answering a
 * probe is not readmitted by that stale answer. A replica ejected because it refused a connection, or whose
 * latest probe failed, is taken to be down; one ejected by a call's timeout, 5xx or lost hedges while its
 * probes pass may just have been slow, and is tried again when no admitted replica is left.
 */
public final class Instance {

    private final String serviceId;
    private final URI uri;
    private final RestClient client;
    private final AtomicInteger outstanding = new AtomicInteger();
    private final AtomicInteger consecutiveServerErrors = new AtomicInteger();
    private final AtomicInteger consecutiveProbeFailures = new AtomicInteger();
    private final AtomicInteger consecutiveOvertaken = new AtomicInteger();
    private volatile boolean ejected;
    private volatile boolean refused;
    private final AtomicBoolean probing = new AtomicBoolean();
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

    /** Whether it is ejected because it refused a connection (known dead until a probe passes). */
    boolean refused() {
        return refused;
    }

    /** Whether its latest health probe failed (slow, not ready or refused). */
    boolean probesFailing() {
        return consecutiveProbeFailures.get() > 0;
    }

    long ejectedAtNanos() {
        return ejectedAtNanos;
    }

    void answered() {
        consecutiveServerErrors.set(0);
        consecutiveOvertaken.set(0);
    }

    /** Records a failed call; returns true when this failure ejected the replica. */
    boolean failed(Failure failure, int serverErrorsToEject, long nowNanos) {
        if (failure == Failure.SERVER_ERROR && consecutiveServerErrors.incrementAndGet() < serverErrorsToEject) {
            return false;
        }
        if (failure == Failure.CONNECT) refused = true;
        return eject(nowNanos);
    }

    /**
     * Records that a hedge sent elsewhere answered first while this replica still had not answered (it lost
     * the race); after a run of them with no answer in between it is ejected as frozen, unless it is the last admitted
     * replica ({@code othersAdmitted} false). Returns true when this ejected it.
     */
    boolean overtaken(int overtakenToEject, boolean othersAdmitted, long nowNanos) {
        if (consecutiveOvertaken.incrementAndGet() < overtakenToEject || !othersAdmitted) return false;
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
     * run of them (one slow probe on a busy machine is no reason to drop a replica). {@code keep}: the probe
     * got no answer in time and no other replica is admitted, so the failure is counted but does not eject.
     * Returns true when this probe ejected the replica.
     */
    boolean probeFailed(boolean refused, boolean keep, int failuresToEject, long nowNanos) {
        if (!refused && consecutiveProbeFailures.incrementAndGet() < failuresToEject) return false;
        if (!refused && keep) return false;
        if (refused) this.refused = true;
        return eject(nowNanos);
    }

    /** Claims the right to probe it now; false while an earlier probe is still running. */
    boolean startProbe() {
        return probing.compareAndSet(false, true);
    }

    void probeEnded() {
        probing.set(false);
    }

    /** Readmits the replica after a passing probe; returns true when it was ejected until now. */
    boolean probePassed(long probeStartedNanos) {
        consecutiveProbeFailures.set(0);
        if (!ejected || probeStartedNanos - ejectedAtNanos <= 0) return false;
        consecutiveServerErrors.set(0);
        consecutiveOvertaken.set(0);
        refused = false;
        ejected = false;
        return true;
    }

    @Override
    public String toString() {
        return serviceId + "@" + uri + (ejected ? " (ejected)" : "");
    }
}
