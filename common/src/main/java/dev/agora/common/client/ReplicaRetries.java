package dev.agora.common.client;

import dev.agora.common.problem.ProblemTypes;
import java.io.IOException;
import java.util.Set;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.client.loadbalancer.ClientHttpResponseStatusCodeException;
import org.springframework.cloud.client.loadbalancer.LoadBalancedRetryContext;
import org.springframework.cloud.client.loadbalancer.LoadBalancedRetryFactory;
import org.springframework.cloud.client.loadbalancer.LoadBalancedRetryPolicy;
import org.springframework.cloud.client.loadbalancer.LoadBalancerProperties;
import org.springframework.cloud.client.loadbalancer.ServiceInstanceChooser;
import org.springframework.cloud.loadbalancer.blocking.retry.BlockingLoadBalancedRetryPolicy;
import org.springframework.cloud.loadbalancer.support.LoadBalancerClientFactory;
import org.springframework.retry.RetryListener;
import org.springframework.retry.backoff.BackOffPolicy;
import org.springframework.retry.backoff.FixedBackOffPolicy;
import org.springframework.retry.backoff.NoBackOffPolicy;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Spring Cloud LoadBalancer's retry ({@code spring.cloud.loadbalancer[.clients.<id>].retry.*}) told what its own policy
 * cannot say (common/README.md, "Extension points used"): which failed calls may be repeated on another replica (by
 * method, {@value #KEY}, {@code retry-on-all-operations}, or as nothing was applied), the pause before a repeat Spring
 * Cloud gives only reactive calls, and why each attempt failed ({@value #CAUSE}) for {@link RetryListener}s.
 */
public final class ReplicaRetries implements LoadBalancedRetryFactory {

    public static final String CAUSE = "agora.retry.cause";
    static final String KEY = "Idempotency-Key";
    private static final Set<String> IDEMPOTENT = Set.of("GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final LoadBalancerClientFactory loadBalancers;
    private final RetryListener[] listeners;

    public ReplicaRetries(LoadBalancerClientFactory loadBalancers, ObjectProvider<RetryListener> listeners) {
        this.loadBalancers = loadBalancers;
        this.listeners = listeners.orderedStream().toArray(RetryListener[]::new);
    }

    public static boolean idempotent(String method, boolean keyed) {
        return keyed || IDEMPOTENT.contains(method);
    }

    @Override
    public LoadBalancedRetryPolicy createRetryPolicy(String serviceId, ServiceInstanceChooser chooser) {
        return new Policy(loadBalancers.getProperties(serviceId));
    }

    @Override
    public BackOffPolicy createBackOffPolicy(String serviceId) {
        var backoff = loadBalancers.getProperties(serviceId).getRetry().getBackoff();
        var pause = new FixedBackOffPolicy();
        pause.setBackOffPeriod(backoff.getMinBackoff().toMillis());
        return backoff.isEnabled() ? pause : new NoBackOffPolicy();
    }

    @Override
    public RetryListener[] createRetryListeners(String serviceId) {
        return listeners;
    }

    static String cause(Throwable failed, boolean chosen) {
        if (!chosen || ReplicaBreakers.neverSent(failed)) return "connect";
        if (!(failed instanceof ClientHttpResponseStatusCodeException answered)) return "io";
        try (var body = answered.getResponse().getBody()) {
            if (answered.getResponse().getStatusCode().value() != 503) return "server_error";
            var type = JSON.readTree(body.readNBytes(8192)).get("type");
            return type != null && ProblemTypes.NOT_APPLIED.toString().equals(type.asString())
                    ? "refused"
                    : "server_error";
        } catch (IOException | JacksonException notAProblem) {
            return "server_error";
        }
    }

    /** One call's policy: Spring Cloud's, with the rules above. */
    private static final class Policy extends BlockingLoadBalancedRetryPolicy {

        private final LoadBalancerProperties.Retry retry;
        private String cause;
        private boolean noneListed;

        Policy(LoadBalancerProperties properties) {
            super(properties);
            this.retry = properties.getRetry();
        }

        @Override
        public boolean canRetry(LoadBalancedRetryContext context) {
            if (cause == null) return true;
            // Without a pause, a look for a replica when none was listed finds none again.
            if (noneListed) return retry.getBackoff().isEnabled();
            return cause.equals("connect")
                    || cause.equals("refused")
                    || retry.isRetryOnAllOperations()
                    || idempotent(
                            context.getRequest().getMethod().name(),
                            context.getRequest().getHeaders().containsHeader(KEY));
        }

        /** After each failed attempt, its replica still in the context. */
        @Override
        public void registerThrowable(LoadBalancedRetryContext context, Throwable failed) {
            noneListed = context.getServiceInstance() == null;
            cause = cause(failed, !noneListed);
            context.setAttribute(CAUSE, cause);
            super.registerThrowable(context, failed);
            if (!retryableException(failed) || !canRetryNextServer(context)) context.setExhaustedOnly();
        }

        @Override
        public boolean retryableException(Throwable failed) {
            return failed == null || "connect".equals(cause) || super.retryableException(failed);
        }
    }
}
