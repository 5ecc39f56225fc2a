package dev.agora.common.client;

import org.apache.hc.client5.http.classic.HttpClient;
import org.apache.hc.core5.concurrent.Cancellable;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;

/**
 * The attempt running on this thread, and how another thread can end it: Apache HttpClient's blocking read cannot
 * be interrupted, so a hedge that answers first ends the attempt it overtook by cancelling that attempt's request,
 * which closes its connection at once instead of at its response timeout.
 */
final class AttemptScope {

    private static final ThreadLocal<AttemptScope> CURRENT = new ThreadLocal<>();

    private Cancellable request;
    private boolean aborted;

    void enter() {
        CURRENT.set(this);
    }

    void leave() {
        CURRENT.remove();
    }

    /** Ends the attempt from another thread (its request is cancelled); false when it was aborted before. */
    boolean abort() {
        Cancellable bound;
        synchronized (this) {
            if (aborted) return false;
            aborted = true;
            bound = request;
        }
        if (bound != null) bound.cancel();
        return true;
    }

    synchronized boolean aborted() {
        return aborted;
    }

    private void bind(Cancellable created) {
        boolean abortedAlready;
        synchronized (this) {
            request = created;
            abortedAlready = aborted;
        }
        if (abortedAlready) created.cancel();
    }

    /** The request factory of replica calls: each request made inside an attempt is bound to it. */
    static final class Requests extends HttpComponentsClientHttpRequestFactory {

        Requests(HttpClient client) {
            super(client);
        }

        @Override
        protected void postProcessHttpRequest(ClassicHttpRequest request) {
            AttemptScope scope = CURRENT.get();
            if (scope != null && request instanceof Cancellable cancellable) scope.bind(cancellable);
        }
    }
}
