package dev.agora.perf.experiment;

import dev.agora.perf.load.HttpDriver;
import dev.agora.perf.load.HttpReply;
import java.util.Arrays;
import java.util.List;

/**
 * Totals of one timer (its {@code _sum} and {@code _count}) over every instance of a tier, read from their
 * Prometheus endpoints; two readings taken around a workload give the mean time the servers themselves spent.
 */
record ServerMetrics(double seconds, long count) {

    static final ServerMetrics NONE = new ServerMetrics(0, 0);

    /**
     * @param metric the timer's Prometheus name without suffix, e.g. {@code http_server_requests_seconds}
     * @param labels label texts every counted series must contain, e.g. {@code uri="/orders"}
     */
    static ServerMetrics read(HttpDriver http, List<String> instances, String metric, String... labels) {
        double seconds = 0;
        long count = 0;
        for (String instance : instances) {
            HttpReply reply = http.get(instance + "/actuator/prometheus");
            if (!reply.isSuccess()) continue;
            for (String line : reply.body().split("\n")) {
                boolean sum = line.startsWith(metric + "_sum{");
                if (!sum && !line.startsWith(metric + "_count{")) continue;
                if (!Arrays.stream(labels).allMatch(line::contains)) continue;
                double value = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                if (sum) seconds += value;
                else count += (long) value;
            }
        }
        return new ServerMetrics(seconds, count);
    }

    /** The mean in ms of what happened between {@code before} and this reading; NaN when nothing did. */
    double meanMillisSince(ServerMetrics before) {
        long calls = count - before.count;
        return calls <= 0 ? Double.NaN : (seconds - before.seconds) * 1000 / calls;
    }

    long countSince(ServerMetrics before) {
        return count - before.count;
    }
}
