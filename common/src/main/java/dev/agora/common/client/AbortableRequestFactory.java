package dev.agora.common.client;

import org.apache.hc.client5.http.classic.HttpClient;
import org.apache.hc.core5.concurrent.Cancellable;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;

/**
 * Apache HttpClient 5 requests that the {@link FailoverClient} can abort from another thread: it runs a hedged
 * call's first attempt on the caller's thread, and when a hedge answers first it cancels that attempt's request
 * (see {@link AttemptAbort}) instead of waiting for its read timeout. Clients given to a {@link FailoverClient}
 * must use this factory.
 */
public final class AbortableRequestFactory extends HttpComponentsClientHttpRequestFactory {

    public AbortableRequestFactory(HttpClient httpClient) {
        super(httpClient);
    }

    @Override
    protected void postProcessHttpRequest(ClassicHttpRequest request) {
        if (request instanceof Cancellable cancellable) AttemptAbort.bind(cancellable::cancel);
    }
}
