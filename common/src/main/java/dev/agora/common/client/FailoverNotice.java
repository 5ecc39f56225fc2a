package dev.agora.common.client;

import jakarta.servlet.http.HttpServletResponse;
import java.util.Locale;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Tells the client of the request being handled that failover touched it: each repeated or hedged call adds an
 * {@value #HEADER} header such as {@code catalog-service;retry;cause=connect;after=0.412} to the response. The
 * response of a request no failover touched has none, so clients and experiments can tell which requests a fault
 * reached without guessing from their latency. {@code after} is the milliseconds from the call's start to the
 * start of the repeated (or hedged) attempt: what detecting the failure and switching cost this call, measured
 * where it happened, free of the noise a client's end-to-end latency carries; {@code cause} is how the attempt
 * before it failed ({@code connect}: it never reached the replica, e.g. refused; {@code io}: reset, no answer or
 * timed out; {@code server_error}: a 5xx). Outside an HTTP request (background work, tests) nothing is recorded.
 */
final class FailoverNotice {

    static final String HEADER = "Agora-Failover";

    /** What happened to a call. */
    enum Event {
        /** An attempt failed (refused, reset, timed out, 5xx) and the call was repeated on another replica. */
        RETRY,
        /** An attempt had no answer within the hedge delay, so the call was also sent to another replica. */
        HEDGE
    }

    private FailoverNotice() {}

    /**
     * Called on the thread that handles the request (the one waiting for the call), before it answers.
     *
     * @param cause how the previous attempt failed; {@code null} for a hedge, whose previous attempt has not
     * @param afterNanos from the call's start to the new attempt's start
     */
    static void record(String serviceId, Event event, Failure cause, long afterNanos) {
        if (!(RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes request)) return;
        HttpServletResponse response = request.getResponse();
        if (response == null || response.isCommitted()) return;
        response.addHeader(HEADER, entry(serviceId, event, cause, afterNanos));
    }

    private static String entry(String serviceId, Event event, Failure cause, long afterNanos) {
        String causeParameter = cause == null ? "" : ";cause=" + cause.name().toLowerCase(Locale.ROOT);
        return String.format(
                Locale.ROOT,
                "%s;%s%s;after=%.3f",
                serviceId,
                event.name().toLowerCase(Locale.ROOT),
                causeParameter,
                afterNanos / 1e6);
    }
}
