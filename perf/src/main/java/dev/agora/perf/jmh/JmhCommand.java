package dev.agora.perf.jmh;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "jmh", mixinStandardHelpOptions = true, description = "Runs the JMH microbenchmarks.")
public final class JmhCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.err.println("jmh: not implemented yet");
        return 2;
    }
}
