package dev.agora.perf.experiment;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "list", mixinStandardHelpOptions = true, description = "Lists the seed experiments.")
public final class ListCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.err.println("list: not implemented yet");
        return 2;
    }
}
