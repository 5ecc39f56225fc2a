package dev.agora.common.testing;

import java.util.List;

/**
 * The metrics every service with Tomcat and a Hikari pool must publish for its bounds (SECURITY.md, "Pools and
 * queues"): each service's {@code BoundsMetricsTest} expects these in its scrape, besides its own pools.
 */
public final class ServerBoundsMetrics {

    public static final List<String> TOMCAT_AND_HIKARI = List.of(
            // Tomcat: request threads and connections against their bounds.
            "tomcat_threads_busy_threads",
            "tomcat_threads_config_max_threads",
            "tomcat_connections_current_connections",
            "tomcat_connections_config_max_connections",
            // Hikari: connections in use, callers waiting, the bound, and waits that timed out.
            "hikaricp_connections_active",
            "hikaricp_connections_pending",
            "hikaricp_connections_max",
            "hikaricp_connections_timeout_total");

    private ServerBoundsMetrics() {}
}
