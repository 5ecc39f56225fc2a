package dev.agora.perf.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "index",
        mixinStandardHelpOptions = true,
        description = "Writes a reports folder's README.md again from its reports' JSON: one table, a row per report."
                + " perf does this whenever it writes a report; run it after deleting one.")
public final class IndexCommand implements Callable<Integer> {

    @Option(
            names = "--reports",
            defaultValue = "perf/reports",
            description = "The reports folder (default: ${DEFAULT-VALUE}).")
    Path reports;

    @Override
    public Integer call() throws Exception {
        if (!Files.isDirectory(reports)) throw new IllegalArgumentException("No reports folder " + reports);
        System.out.println("Index: " + ReportsIndex.write(reports));
        return 0;
    }
}
