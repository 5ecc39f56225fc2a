package dev.agora.common.security;

import java.io.IOException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/** This service's own bearer token, for its calls to other services (client credentials, {@code internal} scope). */
@FunctionalInterface
public interface ServiceTokens {

    /** A token valid for at least the next minute; fetched or renewed when needed. */
    String bearer();

    /** Adds {@code Authorization: Bearer <this service's token>} to every request of a client. */
    default ClientHttpRequestInterceptor interceptor() {
        return new ClientHttpRequestInterceptor() {
            @Override
            public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
                    throws IOException {
                if (!request.getHeaders().containsHeader(HttpHeaders.AUTHORIZATION)) {
                    request.getHeaders().setBearerAuth(bearer());
                }
                return execution.execute(request, body);
            }
        };
    }
}
