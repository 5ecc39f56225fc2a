package dev.agora.perf.stats;

import java.util.List;
import java.util.Optional;

/**
 * Finds where latency turns as the offered rate grows: the first rate whose p99 exceeds {@code factor}
 * times the p99 at the lowest rate, or whose achieved throughput falls below 90% of the offered rate.
 */
public final class Knee {

    public static final double DEFAULT_FACTOR = 3;

    private Knee() {}

    public record Point(double offeredPerSecond, double achievedPerSecond, double p99Ms) {}

    public static Optional<Point> find(List<Point> pointsByRisingRate, double factor) {
        if (pointsByRisingRate.isEmpty()) return Optional.empty();
        double baseline = Math.max(pointsByRisingRate.getFirst().p99Ms(), 0.001);
        for (Point point : pointsByRisingRate) {
            boolean latencyTurned = point.p99Ms() > factor * baseline;
            boolean fellBehind = point.achievedPerSecond() < 0.9 * point.offeredPerSecond();
            if (latencyTurned || fellBehind) return Optional.of(point);
        }
        return Optional.empty();
    }
}
