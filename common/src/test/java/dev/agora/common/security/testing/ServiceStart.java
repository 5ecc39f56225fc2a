package dev.agora.common.security.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts a service's main class as a process of its own, on the test's class path and without the environment's
 * profile, secrets or database settings, and waits for it to exit: how tests prove a service refuses to start.
 */
public final class ServiceStart {

    /** How the process ended: its exit code and everything it printed. */
    public record Exit(int code, String output) {}

    private static final List<String> CLEARED_VARIABLES =
            List.of("SPRING_PROFILES_ACTIVE", "AGORA_CLIENT_SECRET", "DATABASE_URL", "DATABASE_PASSWORD");

    private ServiceStart() {}

    /** Runs {@code main} with these arguments; it must exit on its own within two minutes. */
    public static Exit run(Class<?> main, List<String> arguments) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-Xshare:auto",
                "-cp",
                System.getProperty("java.class.path"),
                main.getName()));
        command.addAll(arguments);
        try {
            Path log = Files.createTempFile(main.getSimpleName() + "-start-", ".log");
            ProcessBuilder builder =
                    new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            CLEARED_VARIABLES.forEach(builder.environment()::remove);
            Process process = builder.start();
            boolean exited = process.waitFor(2, TimeUnit.MINUTES);
            if (!exited) process.destroyForcibly().waitFor();
            String output = Files.readString(log, StandardCharsets.UTF_8);
            Files.delete(log);
            if (!exited) throw new AssertionError(main.getSimpleName() + " did not exit: " + output);
            return new Exit(process.exitValue(), output);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
