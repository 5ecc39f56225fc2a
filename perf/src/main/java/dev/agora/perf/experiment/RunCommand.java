package dev.agora.perf.experiment;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "run", mixinStandardHelpOptions = true, description = "Runs seed experiments by name, or all.")
public final class RunCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.err.println("run: not implemented yet");
        return 2;
    }
}
