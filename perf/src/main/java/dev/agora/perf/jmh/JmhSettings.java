package dev.agora.perf.jmh;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The JMH options of a quick and of a full run. */
final class JmhSettings {

    /** Every benchmark class lives in this package. */
    static final String ALL_AGORA_BENCHMARKS = "dev\\.agora\\.perf\\.jmh\\..*";

    private JmhSettings() {}

    static List<String> arguments(boolean quick, Path resultFile) {
        List<String> arguments = new ArrayList<>(
                quick
                        ? List.of("-f", "1", "-wi", "2", "-w", "1s", "-i", "3", "-r", "1s")
                        : List.of("-f", "1", "-wi", "3", "-w", "2s", "-i", "5", "-r", "2s"));
        arguments.addAll(List.of("-rf", "json", "-rff", resultFile.toString()));
        return arguments;
    }
}
