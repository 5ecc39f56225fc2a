package dev.agora.perf;

import dev.agora.perf.cluster.ClusterCommand;
import dev.agora.perf.cluster.CtlCommand;
import dev.agora.perf.compare.CompareCommand;
import dev.agora.perf.experiment.ListCommand;
import dev.agora.perf.experiment.RunCommand;
import dev.agora.perf.jmh.JmhCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

@Command(
        name = "agora-perf",
        mixinStandardHelpOptions = true,
        description = "Runs the Agora cluster locally and replays the seed experiments against it.",
        subcommands = {
            ClusterCommand.class,
            CtlCommand.class,
            RunCommand.class,
            CompareCommand.class,
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
