package dev.agora.perf.report;

import java.util.ArrayList;
import java.util.List;

/**
 * What to draw: a line (or scatter) chart of numeric series, a timeline of rates per time bin (drawn as steps), or a
 * bar chart of categories. Drawn to PNG
 * by {@link ChartRenderer}; kept as data so the report's JSON holds the same numbers.
 */
public record Chart(
        String fileName, Kind kind, String title, String xAxis, String yAxis, List<Series> series, boolean logY) {

    public enum Kind {
        LINE,
        SCATTER,
        /** Rates per time bin, each held across its bin: steps, no markers. */
        TIMELINE,
        BAR
    }

    /** X values are numbers for LINE, SCATTER and TIMELINE; for BAR the categories are {@code categories}. */
    public record Series(String name, List<Double> x, List<Double> y, List<String> categories) {

        public static Series numeric(String name, List<Double> x, List<Double> y) {
            if (x.size() != y.size()) throw new IllegalArgumentException("x and y differ in length for " + name);
            return new Series(name, List.copyOf(x), List.copyOf(y), List.of());
        }

        public static Series categorical(String name, List<String> categories, List<Double> y) {
            if (categories.size() != y.size()) {
                throw new IllegalArgumentException("categories and y differ in length for " + name);
            }
            return new Series(name, List.of(), List.copyOf(y), List.copyOf(categories));
        }
    }

    public static Builder line(String fileName, String title, String xAxis, String yAxis) {
        return new Builder(fileName, Kind.LINE, title, xAxis, yAxis);
    }

    public static Builder scatter(String fileName, String title, String xAxis, String yAxis) {
        return new Builder(fileName, Kind.SCATTER, title, xAxis, yAxis);
    }

    public static Builder timeline(String fileName, String title, String xAxis, String yAxis) {
        return new Builder(fileName, Kind.TIMELINE, title, xAxis, yAxis);
    }

    public static Builder bar(String fileName, String title, String xAxis, String yAxis) {
        return new Builder(fileName, Kind.BAR, title, xAxis, yAxis);
    }

    public static final class Builder {
        private final String fileName;
        private final Kind kind;
        private final String title;
        private final String xAxis;
        private final String yAxis;
        private final List<Series> series = new ArrayList<>();
        private boolean logY;

        private Builder(String fileName, Kind kind, String title, String xAxis, String yAxis) {
            this.fileName = fileName;
            this.kind = kind;
            this.title = title;
            this.xAxis = xAxis;
            this.yAxis = yAxis;
        }

        public Builder series(String name, List<Double> x, List<Double> y) {
            series.add(Series.numeric(name, x, y));
            return this;
        }

        public Builder bars(String name, List<String> categories, List<Double> y) {
            series.add(Series.categorical(name, categories, y));
            return this;
        }

        public Builder logY() {
            this.logY = true;
            return this;
        }

        public Chart build() {
            return new Chart(fileName, kind, title, xAxis, yAxis, List.copyOf(series), logY);
        }
    }
}
