package dev.agora.perf.experiment;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The cluster an experiment phase needs: replica counts and the knobs it turns. Two phases with equal
 * shapes share one running cluster.
 *
 * @param exchangeStandby a second exchange instance standing by
 * @param environment extra environment by service ("frontend", "catalog", "order", "exchange", "all")
 * @param aotCache start the services from JDK 25 AOT caches even when the run did not ask for them (an
 *     experiment that measures start-up itself)
 */
public record ClusterShape(
        int frontends,
        int catalogs,
        int orders,
        boolean exchange,
        boolean exchangeStandby,
        Map<String, Map<String, String>> environment,
        boolean aotCache) {

    public ClusterShape {
        Map<String, Map<String, String>> sorted = new TreeMap<>();
        environment.forEach((service, values) -> sorted.put(service, new TreeMap<>(values)));
        environment = Map.copyOf(sorted);
    }

    /** The bookstore as shipped: 2 frontends with the cache on, 2 catalogs, 2 order services, no exchange. */
    public static ClusterShape bookstore() {
        return new ClusterShape(2, 2, 2, false, false, Map.of(), false);
    }

    /** Only the exchange (and PostgreSQL). */
    public static ClusterShape exchangeOnly() {
        return new ClusterShape(0, 0, 0, true, false, Map.of(), false);
    }

    /**
     * With the exchange's standby (exchange-2), which takes over when exchange-1 dies or freezes. Experiments that
     * measure the exchange alone run without it, as the seeds' single server did.
     */
    public ClusterShape withExchangeStandby() {
        return new ClusterShape(frontends, catalogs, orders, exchange, true, environment, aotCache);
    }

    public ClusterShape withReplicas(int frontends, int catalogs, int orders) {
        return new ClusterShape(frontends, catalogs, orders, exchange, exchangeStandby, environment, aotCache);
    }

    /**
     * Frontend cache off, and with it the catalog's invalidation pushes: a system without a cache has nothing
     * to invalidate, as in the seeds' "without caching" runs.
     */
    public ClusterShape withoutCache() {
        return with("frontend", "AGORA_CACHE_ENABLED", "false")
                .with("frontend", "AGORA_INVALIDATION_ENABLED", "false")
                .with("catalog", "AGORA_INVALIDATION_ENABLED", "false");
    }

    /** The same cluster started from JDK 25 AOT caches (trained once per build in the run's data directory). */
    public ClusterShape withAotCache() {
        return new ClusterShape(frontends, catalogs, orders, exchange, exchangeStandby, environment, true);
    }

    public boolean cacheEnabled() {
        return !"false".equals(environment.getOrDefault("frontend", Map.of()).get("AGORA_CACHE_ENABLED"));
    }

    public ClusterShape with(String service, String key, String value) {
        Map<String, Map<String, String>> updated = new LinkedHashMap<>(environment);
        Map<String, String> values = new LinkedHashMap<>(updated.getOrDefault(service, Map.of()));
        values.put(key, value);
        updated.put(service, values);
        return new ClusterShape(frontends, catalogs, orders, exchange, exchangeStandby, updated, aotCache);
    }

    public String describe() {
        StringBuilder text = new StringBuilder();
        if (frontends > 0)
            text.append(frontends)
                    .append(" frontend(s) (cache ")
                    .append(cacheEnabled() ? "on" : "off")
                    .append("), ");
        if (catalogs > 0) text.append(catalogs).append(" catalog(s), ");
        if (orders > 0) text.append(orders).append(" order service(s), ");
        if (exchange) text.append(exchangeStandby ? "1 exchange with a standby, " : "1 exchange, ");
        text.append("embedded PostgreSQL 17");
        if (aotCache) text.append(", services started from AOT caches");
        return text.toString();
    }
}
