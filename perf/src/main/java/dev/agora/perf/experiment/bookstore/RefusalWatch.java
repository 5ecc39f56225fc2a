package dev.agora.perf.experiment.bookstore;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;

/**
 * Notes when a replica's port starts refusing connections, by connecting to it every {@link #PACE}. After a
 * SIGKILL this is the kernel's teardown window: Linux unmaps a killed process's memory before it closes its files,
 * so until then connections still complete into the dead listener's backlog and requests sent on open connections
 * get no answer. Each probe that connects is closed at once; paced, the probes cannot fill that backlog (100) within
 * the window, and a probe that finds it full gives up after {@link #CONNECT_TIMEOUT}.
 */
final class RefusalWatch {

    private static final Duration PACE = Duration.ofMillis(2);
    private static final Duration CONNECT_TIMEOUT = Duration.ofMillis(20);
    private static final Duration LIMIT = Duration.ofSeconds(10);

    private final InetSocketAddress address;
    private final Thread thread;
    private volatile long refusedNanos = -1;

    private RefusalWatch(String url) {
        URI uri = URI.create(url);
        address = new InetSocketAddress(uri.getHost(), uri.getPort());
        thread = Thread.ofPlatform().name("refusal-watch").unstarted(this::watch);
    }

    /** Starts probing at once; call just before the fault. */
    static RefusalWatch start(String url) {
        RefusalWatch watch = new RefusalWatch(url);
        watch.thread.start();
        return watch;
    }

    /** Waits for the first refused connection; its {@link System#nanoTime()}, or -1 when none came in time. */
    long refusedNanos() throws InterruptedException {
        thread.join(LIMIT.plusSeconds(1));
        return refusedNanos;
    }

    private void watch() {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (System.nanoTime() - deadline < 0) {
            try (Socket socket = new Socket()) {
                socket.connect(address, (int) CONNECT_TIMEOUT.toMillis());
            } catch (ConnectException refused) {
                refusedNanos = System.nanoTime();
                return;
            } catch (IOException stillThere) {
                // a full backlog lets the connect time out: the listener is still open
            }
            try {
                Thread.sleep(PACE);
            } catch (InterruptedException stopped) {
                return;
            }
        }
    }
}
