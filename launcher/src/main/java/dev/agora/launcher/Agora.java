package dev.agora.launcher;

import dev.agora.launcher.cluster.ClusterCommand;
import dev.agora.launcher.cluster.ProgressView;
import picocli.CommandLine;

/**
 * {@code java -jar launcher/target/agora.jar}: starts the whole cluster ({@link ClusterCommand}); {@code agora.jar
 * ctl ...} injects faults into a running one.
 */
public final class Agora {

    private Agora() {}

    public static void main(String[] args) {
        // On a terminal the progress lines are redrawn in place, which log lines would tear; the instances' own logs
        // and the data directory's files keep the detail. Set before the first logger exists.
        String quiet = ProgressView.isTerminal() ? "warn" : "info";
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", System.getProperty("agora.log-level", quiet));
        // The embedded PostgreSQL echoes every server log line; its own log file keeps them.
        System.setProperty("org.slf4j.simpleLogger.log.io.zonky.test.db.postgres", "warn");
        System.exit(new CommandLine(new ClusterCommand()).execute(args));
    }
}
