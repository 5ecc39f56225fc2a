package dev.agora.perf.experiment.partitions;

import dev.agora.launcher.cluster.ClusterSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The wall clock of ONE instance, steppable while it runs: libfaketime ({@code .ci/install-libfaketime.sh}) is
 * preloaded into that instance's JVM only, and reads the offset it adds to the real time from a file that {@link
 * #step} rewrites. Only the wall clock moves ({@code System.currentTimeMillis}, {@code Instant.now}); the monotonic
 * clock ({@code System.nanoTime}), which the JVM times its waits with, stays real
 * ({@code FAKETIME_DONT_FAKE_MONOTONIC}). libfaketime reads the file at most once a second, and the instance measures
 * its clock against the database's every second (common's {@code agora.clock.interval}, 5 s by default, shortened
 * here so a step is seen within a fault's window).
 */
final class SteppedClock {

    /** System property naming the library; the environment variable {@code AGORA_LIBFAKETIME} does the same. */
    static final String LIBRARY_PROPERTY = "agora.libfaketime";

    private static final String LIBRARY = "libfaketime.so.1";

    private final String instance;
    private final Path library;
    private final Path offsetFile;

    private SteppedClock(String instance, Path library, Path offsetFile) {
        this.instance = instance;
        this.library = library;
        this.offsetFile = offsetFile;
    }

    /**
     * Where the library is: {@code -Dagora.libfaketime}, {@code $AGORA_LIBFAKETIME}, {@code .tools/libfaketime/} in
     * the working directory or a folder above it (where the install script puts it), or Debian's own install.
     */
    static Optional<Path> locate() {
        List<Path> candidates = new ArrayList<>();
        String property = System.getProperty(LIBRARY_PROPERTY);
        if (property != null && !property.isBlank()) candidates.add(Path.of(property));
        String variable = System.getenv("AGORA_LIBFAKETIME");
        if (variable != null && !variable.isBlank()) candidates.add(Path.of(variable));
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            candidates.add(dir.resolve(".tools").resolve("libfaketime").resolve(LIBRARY));
        }
        candidates.add(Path.of("/usr/lib/x86_64-linux-gnu/faketime", LIBRARY));
        candidates.add(Path.of("/usr/lib/faketime", LIBRARY));
        return candidates.stream().filter(Files::isRegularFile).findFirst();
    }

    /** A clock for {@code instance} whose offset file lives in {@code directory}, not stepped yet; empty without libfaketime. */
    static Optional<SteppedClock> of(String instance, Path directory) {
        return locate().map(library -> {
            try {
                Files.createDirectories(directory);
                SteppedClock clock = new SteppedClock(
                        instance,
                        library.toAbsolutePath(),
                        directory.toAbsolutePath().resolve(instance + ".faketime"));
                clock.step(Duration.ZERO);
                return clock;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    String instance() {
        return instance;
    }

    /** {@code spec} with the library preloaded into this clock's instance, and that instance measuring every second. */
    ClusterSpec applyTo(ClusterSpec spec) {
        return spec.withEnvironment(instance, "LD_PRELOAD", library.toString())
                .withEnvironment(instance, "FAKETIME_TIMESTAMP_FILE", offsetFile.toString())
                .withEnvironment(instance, "FAKETIME_DONT_FAKE_MONOTONIC", "1")
                // libfaketime's "monotonic fix" of pthread_cond_timedwait makes the JVM's own timed waits (its periodic
                // and service threads) return at once: each such thread then spins, several CPU-seconds a minute.
                .withEnvironment(instance, "FAKETIME_FORCE_MONOTONIC_FIX", "0")
                .withEnvironment(instance, "FAKETIME_CACHE_DURATION", "1")
                .withEnvironment(instance, "AGORA_CLOCK_INTERVAL", "1s");
    }

    /** Sets the instance's clock {@code offset} (whole seconds, positive: ahead) from the real time. */
    void step(Duration offset) {
        long seconds = offset.toSeconds();
        Path partial = offsetFile.resolveSibling(offsetFile.getFileName() + ".partial");
        try {
            // Written whole and moved into place: libfaketime never reads half a line.
            Files.writeString(partial, (seconds < 0 ? "" : "+") + seconds + "\n");
            Files.move(partial, offsetFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
