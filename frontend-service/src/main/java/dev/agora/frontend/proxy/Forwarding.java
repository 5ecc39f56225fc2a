package dev.agora.frontend.proxy;

import dev.agora.common.client.CallSafety;
import dev.agora.frontend.upstream.Tier;
import dev.agora.frontend.upstream.Upstream;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.List;
import java.util.Set;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.HttpServerErrorException;

/**
 * Forwards a request unchanged (method, raw path and query, body, content type) to a replica of a tier and
 * returns its answer unchanged (status, content type, body; problem+json stays problem+json). A request
 * that never reached a replica, or that a replica refused with nothing applied (503 {@code not-applied}), is sent to
 * another; after that only methods HTTP defines as idempotent, and requests sent with an idempotency key the tier
 * honours, are repeated, and a replica's other 5xx answers are the answer.
 */
final class Forwarding {

    private static final Set<HttpMethod> IDEMPOTENT =
            Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.PUT, HttpMethod.DELETE, HttpMethod.OPTIONS);
    private static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    private static final List<String> REQUEST_HEADERS =
            List.of(HttpHeaders.CONTENT_TYPE, HttpHeaders.ACCEPT, IDEMPOTENCY_KEY);
    private static final List<String> RESPONSE_HEADERS =
            List.of(HttpHeaders.CONTENT_TYPE, HttpHeaders.LOCATION, HttpHeaders.RETRY_AFTER, "Idempotency-Key");

    private final Upstream upstream;

    Forwarding(Upstream upstream) {
        this.upstream = upstream;
    }

    /**
     * @param targetPath the raw (still encoded) path on the tier
     * @param extraHeaders request headers to pass on besides content negotiation and idempotency key
     */
    ResponseEntity<byte[]> forward(
            Tier tier, HttpServletRequest request, String targetPath, byte[] body, List<String> extraHeaders) {
        HttpMethod method = HttpMethod.valueOf(request.getMethod());
        CallSafety safety = IDEMPOTENT.contains(method) ? CallSafety.IDEMPOTENT : CallSafety.NOT_IDEMPOTENT;
        return forward(tier, request, targetPath, body, extraHeaders, null, safety);
    }

    /**
     * Like {@link #forward(Tier, HttpServletRequest, String, byte[], List)} for a request the tier applies once per
     * {@code Idempotency-Key}, sent with {@code idempotencyKey}: any failed attempt may be repeated on another.
     */
    ResponseEntity<byte[]> forwardIdempotent(
            Tier tier,
            HttpServletRequest request,
            String targetPath,
            byte[] body,
            List<String> extraHeaders,
            String idempotencyKey) {
        return forward(tier, request, targetPath, body, extraHeaders, idempotencyKey, CallSafety.IDEMPOTENT);
    }

    private ResponseEntity<byte[]> forward(
            Tier tier,
            HttpServletRequest request,
            String targetPath,
            byte[] body,
            List<String> extraHeaders,
            String idempotencyKey,
            CallSafety safety) {
        HttpMethod method = HttpMethod.valueOf(request.getMethod());
        String query = request.getQueryString();
        String pathAndQuery = query == null ? targetPath : targetPath + "?" + query;
        HttpHeaders headers = new HttpHeaders();
        copy(request, REQUEST_HEADERS, headers);
        copy(request, extraHeaders, headers);
        if (idempotencyKey != null) headers.set(IDEMPOTENCY_KEY, idempotencyKey);
        return upstream.call(tier, safety, replica -> replica.client()
                .method(method)
                .uri(URI.create(replica.uri().toString() + pathAndQuery))
                .headers(h -> h.addAll(headers))
                .body(body == null ? new byte[0] : body)
                .exchange((sent, answer) -> {
                    byte[] answerBody = readAll(answer.getBody());
                    if (answer.getStatusCode().value() == 503) {
                        // A refusal that applied nothing (a standby, a deposed leader) is a failed attempt, not the
                        // answer: the replica client sends it again to the instance that serves now.
                        HttpServerErrorException refused = (HttpServerErrorException) HttpServerErrorException.create(
                                answer.getStatusCode(), answer.getStatusText(), answer.getHeaders(), answerBody, null);
                        if (Upstream.refusedBeforeApplying(refused)) throw refused;
                    }
                    HttpHeaders answerHeaders = new HttpHeaders();
                    for (String name : RESPONSE_HEADERS) {
                        List<String> values = answer.getHeaders().get(name);
                        if (values != null) answerHeaders.addAll(name, values);
                    }
                    return ResponseEntity.status(answer.getStatusCode())
                            .headers(answerHeaders)
                            .body(answerBody);
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
