package dev.agora.common.problem;

import java.sql.SQLTransientConnectionException;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;

/**
 * A pool that had no connection free within its wait is a bound reached, not a bug: the caller gets 503 problem+json
 * with {@code Retry-After}. {@link AgoraProblemHandler} answers so for what controllers throw; the frontend, whose
 * filters read its identity database (Spring Session, the authorization server), for what they throw too.
 */
public final class BusyPools {

    private BusyPools() {}

    /**
     * What was busy when a pooled connection did not come in time, whichever exception wraps the timeout: Hikari's
     * (the database) or HttpClient 5's (another service or an object store); null for any other failure.
     */
    public static String busy(Throwable error) {
        for (Throwable cause = error; cause != null && cause.getCause() != cause; cause = cause.getCause()) {
            if (cause instanceof SQLTransientConnectionException)
                return "The service is too busy to reach its database";
            if (cause instanceof ConnectionRequestTimeoutException) {
                return "The service is too busy: all its connections to a store or service are in use";
            }
        }
        return null;
    }
}
