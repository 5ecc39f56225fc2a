package dev.agora.local.process;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.util.concurrent.Semaphore;

/**
 * Turns at training a jar's AOT cache, in this JVM and between JVMs (modules whose tests run side by side): a file
 * lock per jar, so that one JVM trains it and the others wait and use what it made, and a bounded number of this
 * JVM's trainings at once ({@code turns}). A thread waits for its turn holding no jar's lock: holding the lock of the
 * jar it is about to train, it would keep every other JVM from training that jar while this JVM trains another one.
 */
final class TrainingTurns {

    /** A step run under a jar's lock. */
    @FunctionalInterface
    interface Locked {
        /** @return true when the jar needs no training (any more) */
        boolean run() throws IOException;
    }

    private final Semaphore turns;

    TrainingTurns(int atOnce) {
        this.turns = new Semaphore(atOnce);
    }

    /**
     * Runs {@code ready} under the lock of {@code jarLock}; while it says the jar needs training, waits for a turn
     * (holding no lock), then, unless another JVM holds the lock (training that jar: this waits for it, without the
     * turn), runs {@code train} and {@code ready} again under the lock.
     */
    void prepare(FileChannel jarLock, Locked ready, Locked train) throws IOException {
        while (true) {
            try (FileLock ignored = lockWaiting(jarLock)) {
                if (ready.run()) return;
            }
            turns.acquireUninterruptibly();
            try {
                FileLock lock = jarLock.tryLock();
                if (lock == null) continue;
                try (lock) {
                    if (!ready.run()) {
                        train.run();
                        ready.run();
                    }
                    return;
                }
            } finally {
                turns.release();
            }
        }
    }

    /**
     * {@code jarLock.lock()}, asked again when the kernel refuses it as a deadlock (EDEADLK, "Resource deadlock
     * avoided"). fcntl locks belong to the process, so two JVMs, each with one thread holding one jar's lock and
     * another thread waiting for the jar the other JVM holds, look like a cycle where there is none: each holder
     * finishes its training and lets go.
     */
    private static FileLock lockWaiting(FileChannel jarLock) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                return jarLock.lock();
            } catch (IOException refused) {
                if (attempt == 6_000 || !String.valueOf(refused.getMessage()).contains("deadlock")) throw refused;
                try {
                    Thread.sleep(100);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw refused;
                }
            }
        }
    }

    /** This JVM's turns not taken now (for tests). */
    int free() {
        return turns.availablePermits();
    }

    /** Whether a thread of this JVM waits for a turn (for tests). */
    boolean waited() {
        return turns.hasQueuedThreads();
    }
}
