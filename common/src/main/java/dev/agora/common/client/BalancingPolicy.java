package dev.agora.common.client;

import java.util.List;

/** How the next replica is picked among the admitted ones a call has not tried yet. */
public enum BalancingPolicy {
    /** Each replica in turn. */
    ROUND_ROBIN {
        @Override
        Instance pick(List<Instance> candidates, int turn) {
            return candidates.get(Math.floorMod(turn, candidates.size()));
        }
    },
    /** The replica with the fewest calls in flight; ties go round robin so equal replicas share the load. */
    LEAST_OUTSTANDING {
        @Override
        Instance pick(List<Instance> candidates, int turn) {
            int size = candidates.size();
            int start = Math.floorMod(turn, size);
            Instance best = null;
            int fewest = Integer.MAX_VALUE;
            for (int i = 0; i < size; i++) {
                Instance candidate = candidates.get((start + i) % size);
                int outstanding = candidate.outstanding();
                if (outstanding < fewest) {
                    best = candidate;
                    fewest = outstanding;
                }
            }
            return best;
        }
    };

    /** Picks one of {@code candidates} (never empty); {@code turn} grows by one per pick. */
    abstract Instance pick(List<Instance> candidates, int turn);
}
