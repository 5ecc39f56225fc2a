package dev.agora.common.client;

import dev.agora.common.problem.ProblemTypes;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClientException;
import org.springframework.web.client.RestClientResponseException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** How a call to one replica failed, as far as failover is concerned. */
enum Failure {
    /** The request never reached the replica: refused, unroutable, or the connect timed out. */
    CONNECT,
    /** I/O failed after the request may have been sent: read timeout, reset, no response. */
    IO,
    /**
     * The replica answered 503 {@link ProblemTypes#NOT_APPLIED}: it refused the request before applying any of it
     * (a standby, a deposed leader). Like {@link #CONNECT}, safe to send elsewhere whatever the call; unlike it, the
     * replica is up and answering, so it says nothing against the replica's health.
     */
    REFUSED,
    /** The replica answered 5xx. */
    SERVER_ERROR;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    boolean retryable(CallSafety safety) {
        return this == CONNECT || this == REFUSED || safety == CallSafety.IDEMPOTENT;
    }

    /** The failure kind of {@code error}, or {@code null} when it says nothing about the replica's health. */
    static Failure classify(RuntimeException error) {
        if (error instanceof HttpServerErrorException answered) return notApplied(answered) ? REFUSED : SERVER_ERROR;
        if (error instanceof ResourceAccessException) {
            return neverSent(error) ? CONNECT : IO;
        }
        // The status arrived but the body did not (the replica was killed or froze while sending it, or sent
        // one that cannot be read): RestClient reports that as a plain RestClientException, not as an I/O
        // failure, yet for failover it is one.
        if (error instanceof RestClientException && !(error instanceof RestClientResponseException)) return IO;
        return null;
    }

    /** A 503 problem+json of type {@link ProblemTypes#NOT_APPLIED}. */
    static boolean notApplied(HttpServerErrorException answered) {
        if (answered.getStatusCode().value() != 503) return false;
        byte[] body = answered.getResponseBodyAsByteArray();
        if (body.length == 0 || body.length > 8192) return false;
        try {
            JsonNode type = JSON.readTree(body).get("type");
            return type != null && ProblemTypes.NOT_APPLIED.toString().equals(type.asString());
        } catch (JacksonException notJson) {
            return false;
        }
    }

    private static boolean neverSent(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof ConnectException
                    || cause instanceof NoRouteToHostException
                    || cause instanceof UnknownHostException
                    // Apache HttpClient's and the JDK client's connect timeouts share no common type.
                    || cause.getClass().getSimpleName().endsWith("ConnectTimeoutException")) {
                return true;
            }
            if (cause.getCause() == cause) break;
        }
        return false;
    }
}
