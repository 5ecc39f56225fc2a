package dev.agora.perf.ceiling;

import dev.agora.local.process.ServiceJars;
import dev.agora.perf.jmh.BootJarClasspath;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A {@link NullExchangeServer} in a JVM of its own, started from this program's class path and stopped on close. */
public final class NullExchangeProcess implements AutoCloseable {

    private final Process process;
    private final int port;

    private NullExchangeProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts the server with the given JVM options and waits for its port. */
    public static NullExchangeProcess start(List<String> jvmOptions) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(ServiceJars.javaExecutable());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(BootJarClasspath.resolve());
        command.add(NullExchangeServer.class.getName());
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try {
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
            String line = out.readLine();
            if (line == null) throw new IOException("the null exchange server exited before it listened");
            return new NullExchangeProcess(process, Integer.parseInt(line.strip()));
        } catch (IOException | RuntimeException e) {
            process.destroyForcibly();
            throw e;
        }
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS))
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
