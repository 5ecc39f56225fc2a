package dev.agora.order;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.testing.ServerBoundsMetrics;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every pool and queue of the order service shows its depth (or use), its bound and what it refused in the
 * Prometheus scrape of the real service. Refusals themselves: common's LoadBalancedClientsTest fills a bulkhead, the
 * frontend's BoundsMetricsTest does it over HTTP.
 */
class BoundsMetricsTest extends OrderTestSupport {

    @Test
    void everyPoolAndQueueHasADepthABoundAndARejectionMetric() {
        String scrape = prometheusScrape();
        assertThat(scrape)
                .contains(ServerBoundsMetrics.TOMCAT_AND_HIKARI)
                .contains(List.of(
                        // The outcome writers' backlog.
                        "executor_queued_tasks{name=\"agora.orders.outcomes\"",
                        "agora_executor_queue_capacity{name=\"agora.orders.outcomes\"",
                        "agora_executor_rejected_total{name=\"agora.orders.outcomes\"",
                        "agora_orders_outcomes_backlog",
                        "agora_orders_outcomes_inline_total",
                        // The PENDING orders' writer (group commit).
                        "# TYPE agora_orders_pending_waiting gauge",
                        "# TYPE agora_orders_pending_waiting_capacity gauge",
                        "agora_orders_pending_alone_total{reason=\"backlog-full\"",
                        // Calls to the catalog: the bulkhead, its refusals, the pool.
                        "resilience4j_bulkhead_available_concurrent_calls{name=\"catalog-service\"",
                        "resilience4j_bulkhead_max_allowed_concurrent_calls{name=\"catalog-service\"",
                        "agora_client_calls_rejected_total{service=\"catalog-service\"",
                        "httpcomponents_httpclient_pool_total_pending{httpclient=\"catalog-service\"",
                        "httpcomponents_httpclient_pool_total_max{httpclient=\"catalog-service\"",
                        // The clock's measuring thread.
                        "executor_queued_tasks{name=\"agora.clock\"",
                        // What a client may send (rate limits are the frontend's alone), and the verified tokens
                        // remembered.
                        "agora_limits_body_rejected_total",
                        "agora_security_tokens_remembered_capacity"));
    }
}
