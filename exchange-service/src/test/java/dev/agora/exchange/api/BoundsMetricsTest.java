package dev.agora.exchange.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.exchange.support.ExchangeServiceTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every bounded pool and queue of the exchange shows its depth and what it refused in the Prometheus scrape. */
class BoundsMetricsTest extends ExchangeServiceTest {

    @Test
    void everyQueueAndPoolHasADepthAndARejectionMetric() {
        String scrape = rest(adminToken()).get("/actuator/prometheus").text();
        assertThat(scrape)
                .contains(List.of(
                        "agora_exchange_queue_depth",
                        "agora_exchange_queue_capacity",
                        "agora_exchange_queue_rejected_total",
                        "agora_exchange_commit_pending",
                        "agora_exchange_orders_held",
                        "agora_exchange_orders_closed_kept_by_accounts",
                        "agora_exchange_history_queue_depth",
                        "agora_exchange_history_rejected_total",
                        "agora_exchange_xml_connections",
                        "agora_exchange_xml_refused_total{reason=\"max-connections\"}",
                        "reason=\"max-connections-per-address\"",
                        "reason=\"max-pending-reply-size\"",
                        "agora_exchange_xml_reply_pending_bytes",
                        "agora_exchange_xml_io_tasks",
                        "agora_exchange_xml_timeouts_total{kind=\"read\"}",
                        "kind=\"deadline\"",
                        "kind=\"reply\"",
                        "kind=\"write\"",
                        "kind=\"idle\""));
    }
}
