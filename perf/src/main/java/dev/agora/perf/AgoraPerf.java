package dev.agora.perf;

import dev.agora.perf.compare.BuyCostCommand;
import dev.agora.perf.compare.CompareCommand;
import dev.agora.perf.compare.StartUpCommand;
import dev.agora.perf.experiment.ListCommand;
import dev.agora.perf.experiment.RunCommand;
import dev.agora.perf.jmh.JmhCommand;
import dev.agora.perf.report.IndexCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

@Command(
        name = "agora-perf",
        mixinStandardHelpOptions = true,
        description = "Replays the seed experiments against Agora clusters (started with the launcher, java -jar"
                + " launcher/target/agora.jar) and benchmarks its hot paths.",
        subcommands = {
            RunCommand.class,
            CompareCommand.class,
            StartUpCommand.class,
            BuyCostCommand.class,
            IndexCommand.class,
            ListCommand.class,
            JmhCommand.class
        })
public final class AgoraPerf implements Runnable {

    public static void main(String[] args) {
        System.exit(new CommandLine(new AgoraPerf()).execute(args));
    }

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }
}
