package dev.agora.frontend.upstream;

import dev.agora.common.client.ReplicaRetries;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Locale;
import org.springframework.cloud.client.loadbalancer.LoadBalancedRetryContext;
import org.springframework.retry.RetryCallback;
import org.springframework.retry.RetryContext;
import org.springframework.retry.RetryListener;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Counts the calls repeated on another replica ({@code agora.client.failovers{service}}) and tells the client which
 * requests failover touched, as a listener of Spring Cloud LoadBalancer's retry: each call repeated while handling a
 * request adds an {@value #HEADER} entry to its response, such as
 * {@code catalog-service;retry;cause=connect;after=0.412}, where {@code after} is the milliseconds from the call's start
 * to the failure that made it move (what detecting the failure cost this call, measured where it happened) and
 * {@code cause} how that attempt failed ({@link ReplicaRetries#CAUSE}). A response no failover touched has none, so
 * clients and the failover experiment need not guess from latency.
 */
final class FailoverNotice implements RetryListener {

    static final String HEADER = "Agora-Failover";
    private static final String STARTED = FailoverNotice.class.getName() + ".started";

    private final MeterRegistry meters;

    FailoverNotice(MeterRegistry meters) {
        this.meters = meters;
    }

    @Override
    public <T, E extends Throwable> boolean open(RetryContext context, RetryCallback<T, E> callback) {
        context.setAttribute(STARTED, System.nanoTime());
        return true;
    }

    @Override
    public <T, E extends Throwable> void onError(RetryContext context, RetryCallback<T, E> callback, Throwable failed) {
        // Heard after the policy said whether the call goes on: an exhausted one is not repeated.
        if (context.isExhaustedOnly() || !(context instanceof LoadBalancedRetryContext call)) return;
        String serviceId = call.getRequest().getURI().getHost();
        meters.counter("agora.client.failovers", "service", serviceId).increment();
        if (!(RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes request)) return;
        HttpServletResponse response = request.getResponse();
        if (response == null || response.isCommitted()) return;
        long after = System.nanoTime() - (long) context.getAttribute(STARTED);
        response.addHeader(
                HEADER,
                String.format(
                        Locale.ROOT,
                        "%s;retry;cause=%s;after=%.3f",
                        serviceId,
                        context.getAttribute(ReplicaRetries.CAUSE),
                        after / 1e6));
    }
}
