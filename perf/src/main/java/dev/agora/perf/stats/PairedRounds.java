package dev.agora.perf.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * One figure measured on two systems in alternating rounds (first, second, first, second, ...): round i of each
 * side ran back to back, so a slow window of the machine slows both halves of a pair, and the difference within
 * a pair keeps the effect while the windows' noise mostly cancels. The median of those differences is the figure;
 * one pair caught by a burst of noise moves it little.
 *
 * @param first per round, the first system's value
 * @param second per round, the second system's value, measured right after the first's
 */
public record PairedRounds(List<Double> first, List<Double> second) {

    public PairedRounds {
        if (first.size() != second.size()) {
            throw new IllegalArgumentException(
                    first.size() + " rounds of the first, " + second.size() + " of the second");
        }
        first = List.copyOf(first);
        second = List.copyOf(second);
    }

    /** First minus second, round by round. */
    public List<Double> differences() {
        List<Double> differences = new ArrayList<>(first.size());
        for (int round = 0; round < first.size(); round++) differences.add(first.get(round) - second.get(round));
        return differences;
    }

    /** The median of {@link #differences()}; NaN without rounds. */
    public double medianDifference() {
        return median(differences());
    }

    /** The middle value, or the mean of the two middle ones; NaN for none. */
    public static double median(List<Double> values) {
        if (values.isEmpty()) return Double.NaN;
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }
}
