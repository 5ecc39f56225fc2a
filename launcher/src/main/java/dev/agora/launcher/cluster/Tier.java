package dev.agora.launcher.cluster;

import java.util.Optional;

/** The kinds of service a cluster runs, with their module, well-known base port and database. */
enum Tier {
    CATALOG("catalog", "catalog-service", 8180, "catalog", "CATALOG_INSTANCES"),
    EXCHANGE("exchange", "exchange-service", 8380, "exchange", "EXCHANGE_INSTANCES"),
    ORDER("order", "order-service", 8280, "orders", "ORDER_INSTANCES"),
    FRONTEND("frontend", "frontend-service", 8080, "identity", "FRONTEND_INSTANCES");

    private final String service;
    private final String module;
    private final int basePort;
    private final String database;
    private final String instancesVariable;

    Tier(String service, String module, int basePort, String database, String instancesVariable) {
        this.service = service;
        this.module = module;
        this.basePort = basePort;
        this.database = database;
        this.instancesVariable = instancesVariable;
    }

    String service() {
        return service;
    }

    String module() {
        return module;
    }

    /** Port of replica {@code index} (1-based). */
    int port(int index, int offset) {
        return basePort + index - 1 + offset;
    }

    Optional<String> database() {
        return Optional.ofNullable(database);
    }

    /** The environment variable through which every service learns this tier's replica URLs. */
    String instancesVariable() {
        return instancesVariable;
    }

    String instanceName(int index) {
        return service + "-" + index;
    }

    static Tier of(String service) {
        for (Tier tier : values()) {
            if (tier.service.equals(service)) return tier;
        }
        throw new IllegalArgumentException("Unknown service " + service + " (frontend, catalog, order, exchange)");
    }
}
