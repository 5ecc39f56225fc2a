package dev.agora.perf.compare;

/** Where CPU time is counted: each service tier (all its instances together) and the PostgreSQL server. */
public enum CpuTier {
    FRONTEND("frontend"),
    CATALOG("catalog"),
    ORDER("order"),
    POSTGRES("postgres");

    private final String label;

    CpuTier(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The tier of a launcher's service name ("frontend", "catalog", "order"); null for others (the exchange). */
    static CpuTier ofService(String service) {
        for (CpuTier tier : values()) {
            if (tier != POSTGRES && tier.label.equals(service)) return tier;
        }
        return null;
    }
}
