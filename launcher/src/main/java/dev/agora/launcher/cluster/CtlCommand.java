package dev.agora.launcher.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
        name = "ctl",
        mixinStandardHelpOptions = true,
        description =
                "Injects a fault into a running cluster of this launcher: status | kill | freeze | thaw | restart."
                        + " Presents the control token the cluster wrote into its data directory.")
public final class CtlCommand implements Callable<Integer> {

    enum Action {
        status,
        kill,
        freeze,
        thaw,
        restart
    }

    @Parameters(index = "0", description = "One of: ${COMPLETION-CANDIDATES}.")
    Action action;

    @Parameters(index = "1", arity = "0..1", description = "Instance, e.g. catalog-2.")
    String instance;

    @Option(names = "--port-offset", defaultValue = "0", description = "The cluster's port offset.")
    int portOffset;

    @Option(names = "--control-port", description = "The control port (default 8390 + port offset).")
    Integer controlPort;

    @Option(
            names = "--data-dir",
            defaultValue = "data",
            description = "The cluster's data directory, where its control token is (default: ${DEFAULT-VALUE}).")
    Path dataDirectory;

    @Override
    public Integer call() {
        if (action != Action.status && instance == null) {
            System.err.println(action + " needs an instance name, e.g. catalog-2");
            return 2;
        }
        String token = ControlToken.read(dataDirectory).orElse(null);
        if (token == null) {
            System.err.println("No control token in " + dataDirectory.toAbsolutePath() + "/" + ControlToken.FILE_NAME
                    + ": is the cluster running with that --data-dir?");
            return 1;
        }
        ControlClient client = new ControlClient(controlPort != null ? controlPort : 8390 + portOffset, token);
        try {
            switch (action) {
                case status -> System.out.println(client.instancesJson());
                case kill -> client.kill(instance);
                case freeze -> client.freeze(instance);
                case thaw -> client.thaw(instance);
                case restart -> {
                    Duration ready = client.restart(instance);
                    System.out.printf("%s ready after %.1f s%n", instance, ready.toMillis() / 1000.0);
                }
            }
            if (action != Action.status && action != Action.restart) System.out.println(action + " " + instance);
            return 0;
        } catch (ControlClient.ControlException e) {
            System.err.println(e.getMessage());
            return 1;
        }
    }
}
