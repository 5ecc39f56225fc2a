package dev.agora.perf.jmh;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The JMH options of a quick and of a full run. */
final class JmhSettings {

    /** Every benchmark class lives in this package. */
    static final String ALL_AGORA_BENCHMARKS = "dev\\.agora\\.perf\\.jmh\\..*";

    private JmhSettings() {}

    /**
     * The defaults, less each option that {@code extra} sets itself (JMH refuses an option given twice), then
     * {@code extra}: {@code --jmh-args="-f 3 -i 10"} asks for more forks and iterations.
     */
    static List<String> arguments(boolean quick, Path resultFile, List<String> extra) {
        List<String> defaults = quick
                ? List.of("-f", "1", "-wi", "2", "-w", "1s", "-i", "3", "-r", "1s")
                : List.of("-f", "1", "-wi", "3", "-w", "2s", "-i", "5", "-r", "2s");
        List<String> given = extra.stream()
                .flatMap(argument -> Arrays.stream(argument.strip().split("\\s+")))
                .toList();
        List<String> arguments = new ArrayList<>();
        for (int i = 0; i + 1 < defaults.size(); i += 2) {
            if (!given.contains(defaults.get(i))) arguments.addAll(defaults.subList(i, i + 2));
        }
        arguments.addAll(List.of("-rf", "json", "-rff", resultFile.toString()));
        arguments.addAll(given);
        return arguments;
    }
}
