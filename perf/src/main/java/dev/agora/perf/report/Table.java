package dev.agora.perf.report;

import java.util.ArrayList;
import java.util.List;

/** A markdown table: a header row and rows of already formatted cells. */
public record Table(List<String> headers, List<List<String>> rows) {

    public Table {
        headers = List.copyOf(headers);
        rows = rows.stream().map(List::copyOf).toList();
        for (List<String> row : rows) {
            if (row.size() != headers.size()) {
                throw new IllegalArgumentException(
                        "row " + row + " has " + row.size() + " cells, headers " + headers.size());
            }
        }
    }

    public static Builder with(String... headers) {
        return new Builder(List.of(headers));
    }

    public String toMarkdown() {
        StringBuilder out = new StringBuilder();
        out.append(line(headers));
        out.append('|');
        for (int i = 0; i < headers.size(); i++) out.append("---|");
        out.append('\n');
        for (List<String> row : rows) out.append(line(row));
        return out.toString();
    }

    private static String line(List<String> cells) {
        StringBuilder out = new StringBuilder("|");
        for (String cell : cells) out.append(' ').append(escape(cell)).append(" |");
        return out.append('\n').toString();
    }

    private static String escape(String cell) {
        return (cell == null ? "" : cell).replace("|", "\\|").replace("\n", " ");
    }

    public static final class Builder {
        private final List<String> headers;
        private final List<List<String>> rows = new ArrayList<>();

        private Builder(List<String> headers) {
            this.headers = headers;
        }

        public Builder row(Object... cells) {
            List<String> row = new ArrayList<>();
            for (Object cell : cells) row.add(String.valueOf(cell));
            rows.add(row);
            return this;
        }

        public Table build() {
            return new Table(headers, rows);
        }
    }
}
