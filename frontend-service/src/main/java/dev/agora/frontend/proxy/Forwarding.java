package dev.agora.frontend.proxy;

import dev.agora.frontend.upstream.Tier;
import dev.agora.frontend.upstream.Upstream;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.ResponseEntity;

/**
 * Forwards a request unchanged (method, raw path and query, body, content type) to a replica of a tier through its
 * load-balanced client and returns its answer unchanged (status, content type, body; problem+json stays
 * problem+json). Spring Cloud LoadBalancer repeats it on another replica when it never reached one or a replica
 * refused it with nothing applied (503 {@code not-applied}); after that only when HTTP defines its method as idempotent
 * or it carries an idempotency key the tier honours (common's {@code ReplicaRetries}). The last answer, a 5xx too, is
 * the answer.
 */
final class Forwarding {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    private static final List<String> REQUEST_HEADERS =
            List.of(HttpHeaders.CONTENT_TYPE, HttpHeaders.ACCEPT, IDEMPOTENCY_KEY);
    private static final List<String> RESPONSE_HEADERS =
            List.of(HttpHeaders.CONTENT_TYPE, HttpHeaders.LOCATION, HttpHeaders.RETRY_AFTER, IDEMPOTENCY_KEY);

    private final Upstream upstream;

    Forwarding(Upstream upstream) {
        this.upstream = upstream;
    }

    /**
     * @param targetPath the raw (still encoded) path on the tier
     * @param extraHeaders request headers to pass on besides content negotiation and idempotency key
     * @param idempotencyKey sent as {@value #IDEMPOTENCY_KEY} when not null (the tier applies the request once per key)
     */
    ResponseEntity<byte[]> forward(
            Tier tier,
            HttpServletRequest request,
            String targetPath,
            byte[] body,
            List<String> extraHeaders,
            String idempotencyKey) {
        String query = request.getQueryString();
        String pathAndQuery = query == null ? targetPath : targetPath + "?" + query;
        HttpHeaders headers = new HttpHeaders();
        copy(request, REQUEST_HEADERS, headers);
        copy(request, extraHeaders, headers);
        if (idempotencyKey != null) headers.set(IDEMPOTENCY_KEY, idempotencyKey);
        return upstream.call(tier, () -> upstream.restClient(tier)
                .method(HttpMethod.valueOf(request.getMethod()))
                // The raw path and query as they came, not encoded again.
                .uri(URI.create("http://" + tier.serviceId() + pathAndQuery))
                .headers(h -> h.addAll(headers))
                .body(body == null ? new byte[0] : body)
                .exchange((sent, answer) -> {
                    HttpHeaders answerHeaders = new HttpHeaders();
                    for (String name : RESPONSE_HEADERS) {
                        List<String> values = answer.getHeaders().get(name);
                        if (values != null) answerHeaders.addAll(name, values);
                    }
                    return ResponseEntity.status(answer.getStatusCode())
                            .headers(answerHeaders)
                            .body(readAll(answer.getBody()));
                }));
    }

    private static void copy(HttpServletRequest request, List<String> names, HttpHeaders into) {
        for (String name : names) {
            String value = request.getHeader(name);
            if (value != null) into.set(name, value);
        }
    }

    private static byte[] readAll(java.io.InputStream body) {
        try (body) {
            return body.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
