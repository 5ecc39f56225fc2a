package dev.agora.common.client;

import java.time.Duration;
import org.apache.hc.client5.http.classic.HttpClient;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.core5.concurrent.Cancellable;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.util.Timeout;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;

/**
 * The attempt running on this thread, and how another thread can end it: Apache HttpClient's blocking read cannot
 * be interrupted, so a hedge that answers first ends the attempt it overtook by cancelling that attempt's request,
 * which closes its connection at once instead of at its response timeout.
 */
final class AttemptScope {

    private static final ThreadLocal<AttemptScope> CURRENT = new ThreadLocal<>();

    private final Duration responseTimeout;
    private Cancellable request;
    private boolean aborted;

    /** An attempt that waits for its answer as long as the service's pooled client does. */
    AttemptScope() {
        this(null);
    }

    /** An attempt that waits {@code responseTimeout} for its answer (null: as long as the pooled client does). */
    AttemptScope(Duration responseTimeout) {
        this.responseTimeout = responseTimeout;
    }

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

        /** The pooled client's configuration, with the attempt's own response timeout where it has one. */
        @Override
        protected RequestConfig createRequestConfig(Object client) {
            RequestConfig config = super.createRequestConfig(client);
            AttemptScope scope = CURRENT.get();
            if (scope == null || scope.responseTimeout == null) return config;
            return (config == null ? RequestConfig.custom() : RequestConfig.copy(config))
                    .setResponseTimeout(Timeout.of(scope.responseTimeout))
                    .build();
        }
    }
}
