package dev.agora.perf.jmh;

import dev.agora.perf.report.MachineLoad;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Runs the JMH benchmarks compiled into this jar and summarizes them into {@code perf/reports/jmh.md}.
 *
 * <p>JMH forks a fresh JVM per benchmark with the parent's {@code java.class.path} and its own main class.
 * Inside a Spring Boot jar that class path is the fat jar, whose classes sit in {@code BOOT-INF/} where a
 * plain JVM cannot load them. So the benchmarks run in a child JVM with an ordinary class path: the fat
 * jar's classes and libraries unpacked once into a cache folder ({@link BootJarClasspath}); JMH's own forks
 * then inherit that class path and work as usual.
 */
@Command(
        name = "jmh",
        mixinStandardHelpOptions = true,
        description = "Runs the JMH microbenchmarks (matching core, XML codec, cache lookup, load generator) and "
                + "writes perf/reports/jmh.md.")
public final class JmhCommand implements Callable<Integer> {

    @Option(names = "--quick", description = "One fork, short warm-up and measurement (about a minute in all).")
    boolean quick;

    @Option(
            names = "--output",
            defaultValue = "perf/reports",
            description = "Where jmh.md and jmh.json go (default: ${DEFAULT-VALUE}).")
    Path output;

    @Option(
            names = "--jmh-args",
            split = " ",
            description = "Extra JMH options, passed as they are (e.g. \"-prof gc\").")
    List<String> extra = new ArrayList<>();

    @Parameters(
            arity = "0..*",
            paramLabel = "REGEX",
            description = "Benchmarks to run (JMH include patterns); default: every benchmark in the jar.")
    List<String> includes = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        Files.createDirectories(output);
        Path results = Files.createTempFile("agora-jmh-", ".json");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(BootJarClasspath.resolve());
        command.add("org.openjdk.jmh.Main");
        command.addAll(JmhSettings.arguments(quick, results, extra));
        command.addAll(includes.isEmpty() ? List.of(JmhSettings.ALL_AGORA_BENCHMARKS) : includes);
        System.out.println("Running JMH " + (quick ? "(quick)" : "") + ": "
                + String.join(" ", command.subList(3, command.size())));
        MachineLoad.Reading before = MachineLoad.Reading.now();
        Process jmh = new ProcessBuilder(command).inheritIO().start();
        int exit = jmh.waitFor();
        if (exit != 0 || Files.size(results) == 0) {
            System.err.println("JMH exited with " + exit + "; no summary written");
            return exit == 0 ? 1 : exit;
        }
        List<Path> written =
                JmhSummary.write(results, output, quick, MachineLoad.between(before, MachineLoad.Reading.now()));
        Files.deleteIfExists(results);
        System.out.println("Report: " + written);
        return 0;
    }
}
