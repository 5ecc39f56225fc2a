package dev.agora.perf.compare;

/** The bookstore requests a comparison measures, in the order each round runs them. */
public enum Kind {
    SEARCH,
    LOOKUP,
    BUY;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
