package dev.agora.frontend.upstream;

/** The services behind the frontend: discovery service id and the name used in {@code Server-Timing}. */
public enum Tier {
    CATALOG("catalog-service", "catalog"),
    ORDER("order-service", "order"),
    EXCHANGE("exchange-service", "exchange");

    private final String serviceId;
    private final String timingName;

    Tier(String serviceId, String timingName) {
        this.serviceId = serviceId;
        this.timingName = timingName;
    }

    public String serviceId() {
        return serviceId;
    }

    public String timingName() {
        return timingName;
    }
}
