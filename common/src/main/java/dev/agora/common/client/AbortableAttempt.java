package dev.agora.common.client;

/**
 * The request an attempt on the caller's thread has in flight, so that the {@link FailoverClient} can abort it
 * when a hedge answered first or the call's deadline passed, and the caller returns at once instead of waiting
 * for a frozen replica. A request factory that can abort its requests names them through {@link #onAbort}
 * (see {@link AbortableRequestFactory}); with any other factory the caller waits for its attempt to end.
 */
final class AbortableAttempt {

    private static final ThreadLocal<AbortableAttempt> CURRENT = new ThreadLocal<>();

    private final Instance replica;
    private Runnable abort;
    private boolean aborted;

    AbortableAttempt(Instance replica) {
        this.replica = replica;
    }

    /** Called by a request factory on the thread that is about to send the request. */
    static void onAbort(Runnable abort) {
        AbortableAttempt current = CURRENT.get();
        if (current != null) current.register(abort);
    }

    private synchronized void register(Runnable abort) {
        replica.requestsAreAbortable();
        if (aborted) {
            abort.run();
        } else {
            this.abort = abort;
        }
    }

    /** Aborts the request in flight, and any the attempt sends from now on. */
    void abort() {
        Runnable inFlight;
        synchronized (this) {
            if (aborted) return;
            aborted = true;
            inFlight = abort;
        }
        if (inFlight != null) inFlight.run();
    }

    synchronized boolean aborted() {
        return aborted;
    }

    /** Makes this the attempt of the requests the current thread sends until the scope is closed. */
    Scope open() {
        AbortableAttempt enclosing = CURRENT.get();
        CURRENT.set(this);
        return () -> CURRENT.set(enclosing);
    }

    interface Scope extends AutoCloseable {
        @Override
        void close();
    }
}
