package dev.agora.common.client;

/**
 * Lets another thread end an attempt that runs on the caller's own thread, where it may be blocked reading a
 * socket. The request factory ({@link AbortableRequestFactory}) binds every request it creates during the
 * attempt; {@link #abort()} cancels the bound request, which closes its connection and ends a blocked read
 * at once. An abort that comes before the request is created cancels it as soon as it is bound.
 */
public final class AttemptAbort {

    private static final ThreadLocal<AttemptAbort> CURRENT = new ThreadLocal<>();

    private Runnable cancelRequest;
    private boolean aborted;

    /** Binds a request created on this thread to the attempt running on it; does nothing outside one. */
    public static void bind(Runnable cancelRequest) {
        AttemptAbort current = CURRENT.get();
        if (current != null) current.bound(cancelRequest);
    }

    /** Makes this the abort of whatever this thread runs until {@link #leave()}. */
    void enter() {
        CURRENT.set(this);
    }

    void leave() {
        CURRENT.remove();
    }

    private void bound(Runnable cancel) {
        boolean abortedAlready;
        synchronized (this) {
            cancelRequest = cancel;
            abortedAlready = aborted;
        }
        if (abortedAlready) cancel.run();
    }

    /** Cancels the attempt's request; false when it was aborted before. */
    boolean abort() {
        Runnable cancel;
        synchronized (this) {
            if (aborted) return false;
            aborted = true;
            cancel = cancelRequest;
        }
        if (cancel != null) cancel.run();
        return true;
    }

    synchronized boolean aborted() {
        return aborted;
    }
}
