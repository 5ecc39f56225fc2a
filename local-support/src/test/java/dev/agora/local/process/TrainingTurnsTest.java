package dev.agora.local.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Turns at training between two real JVMs (this one and a child holding file locks as another module's tests do):
 * a thread waiting for its turn holds no jar's lock, and a jar another JVM trains is waited for, not trained twice.
 */
class TrainingTurnsTest {

    private static final Duration WITHIN = Duration.ofSeconds(60);

    @TempDir
    Path folder;

    @Test
    void aThreadWaitingForItsTurnLeavesItsJarToAnotherJvmAndDoesNotTrainItAgain() throws Exception {
        TrainingTurns turns = new TrainingTurns(1);
        Path cache = folder.resolve("b.aot");
        CountDownLatch trainingA = new CountDownLatch(1);
        AtomicInteger trainedB = new AtomicInteger();
        try (FileChannel jarA = open("a.lock");
                FileChannel jarB = open("b.lock")) {
            // This JVM trains jar A: its only turn is taken until the latch opens.
            CompletableFuture<Void> a = prepareInBackground(turns, jarA, () -> false, () -> await(trainingA));
            awaitTrue(() -> turns.free() == 0);
            CompletableFuture<Void> b =
                    prepareInBackground(turns, jarB, () -> Files.exists(cache), () -> trainedB.incrementAndGet() > 0);
            awaitTrue(turns::waited);

            Process other = otherJvm("try", folder.resolve("b.lock"), cache, folder.resolve("unused"));
            assertThat(other.waitFor(WITHIN.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(other.exitValue())
                    .as("the other JVM got jar B's lock while this one waited to train it: %s", output(other))
                    .isZero();

            trainingA.countDown();
            a.get(WITHIN.toSeconds(), TimeUnit.SECONDS);
            b.get(WITHIN.toSeconds(), TimeUnit.SECONDS);
        }
        assertThat(cache).as("trained by the other JVM").exists();
        assertThat(trainedB).as("not trained again here").hasValue(0);
    }

    @Test
    void aJarAnotherJvmTrainsIsWaitedForWithoutHoldingATurn() throws Exception {
        TrainingTurns turns = new TrainingTurns(1);
        Path cache = folder.resolve("b.aot");
        Path release = folder.resolve("release");
        CountDownLatch trainingA = new CountDownLatch(1);
        AtomicInteger trainedB = new AtomicInteger();
        AtomicInteger trainedC = new AtomicInteger();
        Process other = null;
        try (FileChannel jarA = open("a.lock");
                FileChannel jarB = open("b.lock");
                FileChannel jarC = open("c.lock")) {
            CompletableFuture<Void> a = prepareInBackground(turns, jarA, () -> false, () -> await(trainingA));
            awaitTrue(() -> turns.free() == 0);
            // Jar B is untrained when this JVM looks, and the other JVM takes its lock while this one waits its turn.
            CompletableFuture<Void> b =
                    prepareInBackground(turns, jarB, () -> Files.exists(cache), () -> trainedB.incrementAndGet() > 0);
            awaitTrue(turns::waited);
            other = otherJvm("hold", folder.resolve("b.lock"), cache, release);
            BufferedReader said =
                    new BufferedReader(new InputStreamReader(other.getInputStream(), StandardCharsets.UTF_8));
            assertThat(said.readLine()).isEqualTo("locked");

            trainingA.countDown();
            a.get(WITHIN.toSeconds(), TimeUnit.SECONDS);
            // B got its turn, found the other JVM training B and gave the turn back: jar C trains meanwhile.
            CompletableFuture<Void> c =
                    prepareInBackground(turns, jarC, () -> trainedC.get() > 0, () -> trainedC.incrementAndGet() > 0);
            c.get(WITHIN.toSeconds(), TimeUnit.SECONDS);
            assertThat(trainedC).hasValue(1);
            awaitTrue(() -> turns.free() == 1);
            assertThat(b)
                    .as("waiting for the other JVM's training of B, holding no turn")
                    .isNotDone();

            Files.writeString(release, "go");
            b.get(WITHIN.toSeconds(), TimeUnit.SECONDS);
            assertThat(other.waitFor(WITHIN.toSeconds(), TimeUnit.SECONDS)).isTrue();
        } finally {
            if (other != null) other.destroyForcibly();
        }
        assertThat(cache).as("trained by the other JVM").exists();
        assertThat(trainedB).as("not trained again here").hasValue(0);
        assertThat(turns.free()).isEqualTo(1);
    }

    private FileChannel open(String name) throws IOException {
        return FileChannel.open(folder.resolve(name), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    }

    private static CompletableFuture<Void> prepareInBackground(
            TrainingTurns turns, FileChannel jar, BooleanSupplier ready, BooleanSupplier train) {
        // A thread each (the common pool may have one thread on two cores, and these block).
        return CompletableFuture.runAsync(
                () -> {
                    try {
                        turns.prepare(jar, ready::getAsBoolean, train::getAsBoolean);
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                },
                task -> Thread.ofPlatform().daemon().start(task));
    }

    private static boolean await(CountDownLatch latch) {
        try {
            return latch.await(WITHIN.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WITHIN.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition within %s", WITHIN).isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    private static Process otherJvm(String mode, Path lock, Path cache, Path release) throws IOException {
        return new ProcessBuilder(List.of(
                        ServiceJars.javaExecutable(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        OtherJvm.class.getName(),
                        mode,
                        lock.toString(),
                        cache.toString(),
                        release.toString()))
                .redirectErrorStream(true)
                .start();
    }

    private static String output(Process process) throws IOException {
        return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    /**
     * Another module's test JVM training a jar: {@code try} takes the jar's lock if free (exit 3 if not) and trains;
     * {@code hold} takes it, says so, and trains once the release file appears.
     */
    static final class OtherJvm {
        public static void main(String[] args) throws Exception {
            try (FileChannel channel =
                    FileChannel.open(Path.of(args[1]), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                FileLock lock = args[0].equals("try") ? channel.tryLock() : channel.lock();
                if (lock == null) {
                    System.out.println("busy");
                    System.exit(3);
                }
                System.out.println("locked");
                System.out.flush();
                if (args[0].equals("hold")) {
                    long deadline = System.nanoTime() + WITHIN.toNanos();
                    while (!Files.exists(Path.of(args[3])) && System.nanoTime() < deadline) Thread.sleep(10);
                }
                Files.writeString(Path.of(args[2]), "trained");
                lock.release();
            }
        }
    }
}
