package dev.agora.common.client;

import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Tells the client of the request being handled that failover touched it: each repeated or hedged call adds an
 * {@value #HEADER} header such as {@code catalog-service;retry} to the response. The response of a request no
 * failover touched has none, so clients and experiments can tell which requests a fault reached without
 * guessing from their latency. Outside an HTTP request (background work, tests) nothing is recorded.
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

    /** Called on the thread that handles the request (the one waiting for the call), before it answers. */
    static void record(String serviceId, Event event) {
        if (!(RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes request)) return;
        HttpServletResponse response = request.getResponse();
        if (response == null || response.isCommitted()) return;
        response.addHeader(HEADER, serviceId + ";" + event.name().toLowerCase());
    }
}
