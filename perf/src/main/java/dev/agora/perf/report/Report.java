package dev.agora.perf.report;

import dev.agora.perf.stats.Comparison;
import dev.agora.perf.stats.LatencySummary;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One experiment's outcome as the report writer renders it: the headline comparison with the seed, the
 * latency distributions, free-form sections, charts, notes, the machine, and the raw data for JSON.
 *
 * @param commit the commit whose jars were measured ({@code git rev-parse --short HEAD} of the tree, "with uncommitted
 *     changes" when its tracked files differ); empty until the command that ran it has said
 * @param conditions how the system ran: JVM options, AOT cache, warm-up; empty until the command has said
 * @param floor what the same work costs without Agora's own (a bare endpoint, a bare commit, a null server), measured
 *     in the same run, beside the figure it bounds; empty where no floor applies
 * @param load how busy the machine was while the experiment ran; null until the run command has measured it
 */
public record Report(
        String name,
        String title,
        String seed,
        String seedHardware,
        Status status,
        String headline,
        List<Comparison> comparisons,
        List<LatencyRow> latencies,
        List<Section> sections,
        List<Chart> charts,
        List<String> notes,
        String floor,
        Machine machine,
        String commit,
        String conditions,
        MachineLoad load,
        Instant startedAt,
        Duration duration,
        boolean quick,
        Map<String, Object> raw) {

    public enum Status {
        /** Measured on Agora and compared with the seed. */
        MEASURED,
        /** The seed's workload needs a feature Agora does not have; nothing was measured. */
        NOT_APPLICABLE,
        /** The experiment could not finish; the report says why. */
        FAILED
    }

    /** One row of the latency table: a named workload with its distribution and failures. */
    public record LatencyRow(String workload, LatencySummary summary, long failures) {}

    /** A heading with text and optionally a table under it. */
    public record Section(String heading, String text, Table table) {}

    /** This report with one more note (e.g. how the clusters were warmed up). */
    public Report withNote(String note) {
        List<String> more = new java.util.ArrayList<>(notes);
        more.add(note);
        return copy(List.copyOf(more), commit, conditions, load);
    }

    /** This report with how busy the machine was while it ran. */
    public Report withLoad(MachineLoad measured) {
        return copy(notes, commit, conditions, measured);
    }

    /** This report naming what it measured: the commit and how the system ran. */
    public Report measuring(String measuredCommit, String measuredConditions) {
        return copy(notes, measuredCommit, measuredConditions, load);
    }

    private Report copy(List<String> notes, String commit, String conditions, MachineLoad load) {
        return new Report(
                name,
                title,
                seed,
                seedHardware,
                status,
                headline,
                comparisons,
                latencies,
                sections,
                charts,
                notes,
                floor,
                machine,
                commit,
                conditions,
                load,
                startedAt,
                duration,
                quick,
                raw);
    }

    public static Builder builder(String name, String title) {
        return new Builder(name, title);
    }

    public static final class Builder {
        private final String name;
        private final String title;
        private String seed = "";
        private String seedHardware = "";
        private Status status = Status.MEASURED;
        private String headline;
        private final List<Comparison> comparisons = new ArrayList<>();
        private final List<LatencyRow> latencies = new ArrayList<>();
        private final List<Section> sections = new ArrayList<>();
        private final List<Chart> charts = new ArrayList<>();
        private final List<String> notes = new ArrayList<>();
        private String floor = "";
        private Machine machine = Machine.current();
        private Instant startedAt = Instant.now();
        private Duration duration = Duration.ZERO;
        private boolean quick;
        private final Map<String, Object> raw = new LinkedHashMap<>();

        private Builder(String name, String title) {
            this.name = name;
            this.title = title;
        }

        public Builder seed(String seed, String seedHardware) {
            this.seed = seed;
            this.seedHardware = seedHardware;
            return this;
        }

        public Builder status(Status status) {
            this.status = status;
            return this;
        }

        /** Overrides the headline; by default it is made from the first comparison. */
        public Builder headline(String headline) {
            this.headline = headline;
            return this;
        }

        public Builder compare(Comparison comparison) {
            comparisons.add(comparison);
            return this;
        }

        public Builder latency(String workload, LatencySummary summary, long failures) {
            latencies.add(new LatencyRow(workload, summary, failures));
            return this;
        }

        public Builder section(String heading, String text) {
            sections.add(new Section(heading, text, null));
            return this;
        }

        public Builder section(String heading, String text, Table table) {
            sections.add(new Section(heading, text, table));
            return this;
        }

        public Builder chart(Chart chart) {
            charts.add(chart);
            return this;
        }

        public Builder note(String note) {
            notes.add(note);
            return this;
        }

        /** The floor beside the headline figure, e.g. "2-tier floor 1.2 ms at 5 clients (Agora 3.1x it)". */
        public Builder floor(String floor) {
            this.floor = floor;
            return this;
        }

        public Builder machine(Machine machine) {
            this.machine = machine;
            return this;
        }

        public Builder timing(Instant startedAt, Duration duration) {
            this.startedAt = startedAt;
            this.duration = duration;
            return this;
        }

        public Builder quick(boolean quick) {
            this.quick = quick;
            return this;
        }

        public Builder raw(String key, Object value) {
            raw.put(key, value);
            return this;
        }

        public Report build() {
            String line = headline;
            if (line == null) {
                line = comparisons.isEmpty()
                        ? title
                        : String.join(
                                "; ",
                                comparisons.stream()
                                        .limit(2)
                                        .map(Comparison::headline)
                                        .toList());
            }
            return new Report(
                    name,
                    title,
                    seed,
                    seedHardware,
                    status,
                    line,
                    List.copyOf(comparisons),
                    List.copyOf(latencies),
                    List.copyOf(sections),
                    List.copyOf(charts),
                    List.copyOf(notes),
                    floor,
                    machine,
                    "",
                    "",
                    null,
                    startedAt,
                    duration,
                    quick,
                    new LinkedHashMap<>(raw));
        }
    }
}
