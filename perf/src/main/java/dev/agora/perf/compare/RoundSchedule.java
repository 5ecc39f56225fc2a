package dev.agora.perf.compare;

import java.util.ArrayList;
import java.util.List;

/**
 * The order of a comparison's batches: in each round, for each kind (search, lookup, buy), one batch against one
 * cluster and then one against the other. Which cluster goes first alternates from round to round, starting with
 * the baseline, so neither side always runs in the other's wake (a JIT deoptimisation, a GC, a neighbour's burst).
 */
public final class RoundSchedule {

    /** One batch of sequential requests. */
    public record Batch(int round, Kind kind, Side side) {}

    private RoundSchedule() {}

    /** The side that runs first in a round (0-based). */
    public static Side firstIn(int round) {
        return round % 2 == 0 ? Side.BASELINE : Side.CANDIDATE;
    }

    public static List<Batch> batches(int rounds) {
        if (rounds < 1) throw new IllegalArgumentException("at least one round, not " + rounds);
        List<Batch> batches = new ArrayList<>(rounds * Kind.values().length * 2);
        for (int round = 0; round < rounds; round++) {
            Side first = firstIn(round);
            for (Kind kind : Kind.values()) {
                batches.add(new Batch(round, kind, first));
                batches.add(new Batch(round, kind, first.other()));
            }
        }
        return List.copyOf(batches);
    }
}
