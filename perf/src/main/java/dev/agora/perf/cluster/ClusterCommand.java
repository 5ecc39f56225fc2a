package dev.agora.perf.cluster;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(
        name = "cluster",
        mixinStandardHelpOptions = true,
        description =
                "Starts the whole Agora cluster (embedded PostgreSQL + every service instance as its own process).")
public final class ClusterCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.err.println("cluster: not implemented yet");
        return 2;
    }
}
