package dev.agora.order.catalog;

import dev.agora.common.client.FailoverSettings;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the order service reaches the catalog replicas ({@code agora.catalog.*}): through common's
 * {@code FailoverClient} and {@code HealthProber}, like the frontend reaches its tiers.
 *
 * @param serviceId the replicas' discovery id ({@code agora.instances.catalog-service})
 * @param connectTimeout a dead replica refuses at once; this bounds an unroutable one
 * @param readTimeout one attempt. A reservation takes milliseconds, but may legitimately wait for the
 *     catalog's invalidation pushes (up to {@code agora.invalidation.deadline}, 1 s, when a frontend is frozen)
 *     and for a book's row lock held by a catalog replica frozen inside a transaction (until PostgreSQL ends
 *     that session: {@code idle_in_transaction_session_timeout}, 2 s). It must exceed both together, or a
 *     working replica would be abandoned; a frozen replica is left after {@code hedgeDelay} instead.
 * @param hedgeDelay no answer after this: the same reservation (idempotent by order id) also goes to the
 *     other replica, and the first answer wins
 * @param callTimeout the whole reservation call; the frontend's order read timeout must exceed it
 * @param maxConnections pooled connections per replica
 * @param healthInterval health probes of every replica (readiness), this often
 * @param hedgeBudgetPercent hedged reservations allowed, as a share of answered attempts (as the frontend's
 *     {@code agora.client.hedge-budget-percent}): a catalog slower than the hedge delay is not sent every call twice
 * @param hedgeBudgetBurst hedges allowed beyond that share in a row
 */
@ConfigurationProperties("agora.catalog")
record CatalogProperties(
        @DefaultValue("catalog-service") String serviceId,
        @DefaultValue("200ms") Duration connectTimeout,
        @DefaultValue("3500ms") Duration readTimeout,
        @DefaultValue("150ms") Duration hedgeDelay,
        @DefaultValue("4s") Duration callTimeout,
        @DefaultValue("64") int maxConnections,
        @DefaultValue("500ms") Duration healthInterval,
        @DefaultValue("10") int hedgeBudgetPercent,
        @DefaultValue("10") int hedgeBudgetBurst) {

    FailoverSettings failoverSettings() {
        return FailoverSettings.defaults()
                .withTimeouts(connectTimeout, readTimeout, hedgeDelay, callTimeout)
                .withHealth(healthInterval, Duration.ofMillis(500), "/readyz")
                .withMaxConnections(maxConnections)
                .withHedgeBudget(hedgeBudgetPercent, hedgeBudgetBurst);
    }
}
