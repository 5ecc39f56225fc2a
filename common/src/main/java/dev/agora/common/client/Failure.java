package dev.agora.common.client;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClientException;
import org.springframework.web.client.RestClientResponseException;

/** How a call to one replica failed, as far as failover is concerned. */
enum Failure {
    /** The request never reached the replica: refused, unroutable, or the connect timed out. */
    CONNECT,
    /** I/O failed after the request may have been sent: read timeout, reset, no response. */
    IO,
    /** The replica answered 5xx. */
    SERVER_ERROR;

    boolean retryable(CallSafety safety) {
        return this == CONNECT || safety == CallSafety.IDEMPOTENT;
    }

    /** The failure kind of {@code error}, or {@code null} when it says nothing about the replica's health. */
    static Failure classify(RuntimeException error) {
        if (error instanceof HttpServerErrorException) return SERVER_ERROR;
        if (error instanceof ResourceAccessException) {
            return neverSent(error) ? CONNECT : IO;
        }
        // The status arrived but the body did not (the replica was killed or froze while sending it, or sent
        // one that cannot be read): RestClient reports that as a plain RestClientException, not as an I/O
        // failure, yet for failover it is one.
        if (error instanceof RestClientException && !(error instanceof RestClientResponseException)) return IO;
        return null;
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
