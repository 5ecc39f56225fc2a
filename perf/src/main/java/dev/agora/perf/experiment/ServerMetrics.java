package dev.agora.perf.experiment;

import dev.agora.perf.load.HttpDriver;
import dev.agora.perf.load.HttpReply;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Totals of one timer (its {@code _sum} and {@code _count}) over every instance of a tier, read from their
 * Prometheus endpoints; two readings taken around a workload give the mean time the servers themselves spent.
 */
public record ServerMetrics(double seconds, long count) {

    public static final ServerMetrics NONE = new ServerMetrics(0, 0);

    /** One line of a Prometheus text page: the series (name and labels) and its value. */
    public record Sample(String series, double value) {

        /** The series is {@code name} itself (with any labels), not a longer name starting with it. */
        public boolean isNamed(String name) {
            return series.equals(name) || series.startsWith(name + "{");
        }

        public boolean hasLabels(String... labels) {
            return Arrays.stream(labels).allMatch(series::contains);
        }
    }

    /** Every sample an instance's {@code /actuator/prometheus} shows; none when it does not answer. */
    public static List<Sample> scrape(HttpDriver http, String instance) {
        HttpReply reply = http.get(instance + "/actuator/prometheus");
        List<Sample> samples = new ArrayList<>();
        if (!reply.isSuccess()) return samples;
        for (String line : reply.body().split("\n")) {
            if (line.isBlank() || line.startsWith("#")) continue;
            int space = line.lastIndexOf(' ');
            samples.add(new Sample(line.substring(0, space), Double.parseDouble(line.substring(space + 1))));
        }
        return samples;
    }

    /**
     * @param metric the timer's Prometheus name without suffix, e.g. {@code http_server_requests_seconds}
     * @param labels label texts every counted series must contain, e.g. {@code uri="/orders"}
     */
    public static ServerMetrics read(HttpDriver http, List<String> instances, String metric, String... labels) {
        double seconds = 0;
        long count = 0;
        for (String instance : instances) {
            for (Sample sample : scrape(http, instance)) {
                if (!sample.hasLabels(labels)) continue;
                if (sample.isNamed(metric + "_sum")) seconds += sample.value();
                else if (sample.isNamed(metric + "_count")) count += (long) sample.value();
            }
        }
        return new ServerMetrics(seconds, count);
    }

    /** The mean in ms of what happened between {@code before} and this reading; NaN when nothing did. */
    public double meanMillisSince(ServerMetrics before) {
        long calls = count - before.count;
        return calls <= 0 ? Double.NaN : (seconds - before.seconds) * 1000 / calls;
    }

    public long countSince(ServerMetrics before) {
        return count - before.count;
    }
}
