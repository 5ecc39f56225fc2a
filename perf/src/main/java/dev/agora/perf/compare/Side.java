package dev.agora.perf.compare;

/** Which of the two clusters a batch ran against. */
public enum Side {
    /** The old tree's jars ({@code --baseline}). */
    BASELINE("old"),
    /** This tree's jars. */
    CANDIDATE("new");

    private final String label;

    Side(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public Side other() {
        return this == BASELINE ? CANDIDATE : BASELINE;
    }
}
