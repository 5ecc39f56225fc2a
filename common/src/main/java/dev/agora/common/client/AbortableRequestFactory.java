package dev.agora.common.client;

import java.net.URI;
import org.apache.hc.client5.http.classic.HttpClient;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;

/**
 * Apache HttpClient 5 requests that the {@link FailoverClient} can abort: a hedged call's first attempt runs on
 * the caller's thread, and when a hedge answers first, cancelling the request closes its connection so the
 * caller's blocked read ends at once.
 */
public final class AbortableRequestFactory extends HttpComponentsClientHttpRequestFactory {

    public AbortableRequestFactory(HttpClient httpClient) {
        super(httpClient);
    }

    @Override
    protected ClassicHttpRequest createHttpUriRequest(HttpMethod httpMethod, URI uri) {
        ClassicHttpRequest request = super.createHttpUriRequest(httpMethod, uri);
        if (request instanceof HttpUriRequestBase cancellable) AbortableAttempt.onAbort(cancellable::cancel);
        return request;
    }
}
