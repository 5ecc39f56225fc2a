package dev.agora.catalog.invalidation;

import dev.agora.catalog.book.BookChangeListener;
import dev.agora.catalog.book.BookChanged;
import dev.agora.common.limits.BoundedExecutors;
import dev.agora.common.security.ServiceTokens;
import dev.agora.common.web.WritingFrontend;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;

/**
 * Tells every frontend of every committed book change before the write is answered, over one WebSocket per frontend
 * ({@link FrontendSession}), to all frontends at once: a write waits for the slowest acknowledgement, not for their
 * sum. The guarantee: a write is answered only after every frontend acknowledged the change, or was counted out and
 * can no longer use its cache: a frontend uses its cache only under a lease this catalog grants it, so for a frontend
 * that does not acknowledge within a lease length the write stops granting it leases and waits until its last one
 * has run out (at most one lease length after it was granted). A frontend that refuses connections is down, cache
 * and all, and costs nothing. The frontend a buy came through (common's {@link WritingFrontend}, a header of the
 * request being handled) is not waited for: it drops the book itself before it answers its client.
 *
 * <p>A session opened while a write was in flight gets no lease until that write is answered, so a frontend that
 * connects in the middle of a write cannot use a copy read before the write committed. Sessions are reopened in the
 * background every half lease, and by a write that finds none.
 */
final class FrontendInvalidator implements BookChangeListener, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(FrontendInvalidator.class);
    /** Between a failed send and the next try on a new session. */
    private static final long RESEND_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final InvalidationProperties properties;
    private final DiscoveryClient discovery;
    private final ServiceTokens tokens;
    private final HttpClient http;
    private final Duration connectTimeout;
    private final MeterRegistry meters;
    private final Map<URI, FrontendSession> sessions = new ConcurrentHashMap<>();
    private final AtomicLong announcements = new AtomicLong();
    private final ConcurrentSkipListSet<Long> inFlight = new ConcurrentSkipListSet<>();
    /** One thread, one periodic task (reopening sessions): its queue never holds more. */
    private final ScheduledThreadPoolExecutor reconnects = new ScheduledThreadPoolExecutor(
            1, Thread.ofPlatform().name("invalidation-sessions").daemon().factory());
    /**
     * Writes the messages to every frontend's socket, in each socket's order. A writer's thread only hands its
     * message over: writing it itself (the JDK's WebSocket writes on the caller's thread when the socket is free) kept
     * the book's row locked and the buy waiting for a socket write of a frontend it may not even wait for (the one the
     * buy came through). Each session has at most one message handed over at a time (the next is handed over when the
     * last is written), so the queue holds at most one per frontend; were it ever full, the writer writes itself.
     */
    private final ThreadPoolExecutor writes = new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(1024),
            Thread.ofPlatform().name("invalidation-writes").daemon().factory(),
            new ThreadPoolExecutor.CallerRunsPolicy());
    /** What invalidation adds to a write: from the announcement to the last frontend's acknowledgement. */
    private final Timer pushTime;
    /** Frontends whose last push failed: logged once when they fail and once when they are back. */
    private final Set<URI> failing = ConcurrentHashMap.newKeySet();

    FrontendInvalidator(
            InvalidationProperties properties,
            DiscoveryClient discovery,
            ServiceTokens tokens,
            HttpClient http,
            Duration connectTimeout,
            MeterRegistry meters) {
        this.properties = properties;
        this.discovery = discovery;
        this.tokens = tokens;
        this.http = http;
        this.connectTimeout = connectTimeout;
        this.meters = meters;
        this.pushTime = Timer.builder("agora.invalidation.push")
                .description("Time a write waits for every frontend to take its invalidation")
                // Client-side percentiles only: Prometheus drops them from a timer that also has a histogram.
                .publishPercentiles(0.5, 0.99)
                .register(meters);
        Gauge.builder("agora.invalidation.sessions", sessions, all -> all.values().stream()
                        .filter(FrontendSession::open)
                        .count())
                .description("Frontends with an open invalidation session")
                .register(meters);
        BoundedExecutors.monitor(meters, reconnects, "agora.invalidation.reconnects");
        BoundedExecutors.monitor(meters, writes, "agora.invalidation.writes");
        long every = Math.max(100, properties.lease().toMillis() / 2);
        reconnects.scheduleWithFixedDelay(this::reconnectAll, 0, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public Announcement announce(BookChanged change) {
        return announce(change, 1);
    }

    /**
     * Sends the change to every frontend now; each write awaits every frontend but the one it came through (asked on
     * the awaiting thread, which handles that write's request). A frontend's acknowledgement is waited for once however
     * many writes share the change: its failure is counted once, its session revoked once. The change stays in flight
     * (no lease for a session opened meanwhile) until the last of the writes has awaited it.
     */
    @Override
    public Announcement announce(BookChanged change, int writes) {
        long started = System.nanoTime();
        long number = announcements.incrementAndGet();
        inFlight.add(number);
        List<Push> pushes = new ArrayList<>();
        for (FrontendSession session : sessions()) pushes.add(new Push(session.send(change)));
        AtomicInteger awaiting = new AtomicInteger(writes);
        return () -> {
            Optional<URI> writer = WriterOfRequest.current();
            boolean awaitedAny = false;
            try {
                for (Push push : pushes) {
                    URI frontend = push.sent().session().frontend();
                    if (writer.isPresent() && WriterOfRequest.sameInstance(frontend, writer.get())) continue;
                    awaitedAny = true;
                    push.settle(() -> await(push.sent(), change, started));
                }
            } finally {
                if (awaiting.decrementAndGet() <= 0) inFlight.remove(number);
                if (awaitedAny) pushTime.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
            }
        };
    }

    /** One frontend's part of an announcement: waited for by the first write that needs it, the others wait for it. */
    private static final class Push {

        private final FrontendSession.Sent sent;
        private final AtomicBoolean claimed = new AtomicBoolean();
        private final CompletableFuture<Void> settled = new CompletableFuture<>();

        Push(FrontendSession.Sent sent) {
            this.sent = sent;
        }

        FrontendSession.Sent sent() {
            return sent;
        }

        void settle(Runnable awaiting) {
            if (!claimed.compareAndSet(false, true)) {
                settled.join();
                return;
            }
            try {
                awaiting.run();
            } finally {
                settled.complete(null);
            }
        }
    }

    /**
     * Waits for one acknowledgement for a lease length from the announcement; a session that ended meanwhile is
     * reopened and the change sent again. Without one the frontend is counted out: no more leases, and the write
     * waits until its last one has run out.
     */
    private void await(FrontendSession.Sent sent, BookChanged change, long started) {
        long deadline = started + properties.lease().toNanos();
        FrontendSession session = sent.session();
        String why = "no acknowledgement within the lease";
        while (true) {
            try {
                sent.acknowledged().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (failing.remove(session.frontend()))
                    log.info("Frontend {} takes invalidations again", session.frontend());
                return;
            } catch (TimeoutException late) {
                break;
            } catch (ExecutionException ended) {
                why = ended.getCause().getMessage();
                if (ended.getCause() instanceof FrontendSession.Unreachable down
                        && (down.refused() || (down.opening() && session.leaseEndsNanos() - System.nanoTime() <= 0))) {
                    // Down, or no session to be had with a frontend that holds no lease of this catalog: it cannot
                    // be using a cache this catalog vouches for, and waiting gains nothing.
                    failed(session.frontend(), change, why, !down.refused());
                    return;
                }
                if (System.nanoTime() - deadline >= 0) break;
                sleepUntil(Math.min(deadline, System.nanoTime() + RESEND_PAUSE_NANOS));
                sent = session.send(change);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        failed(session.frontend(), change, why, true);
        sleepUntil(session.revoke());
    }

    private void failed(URI frontend, BookChanged change, String why, boolean waitsForLease) {
        Counter.builder("agora.invalidation.failures")
                .description("Invalidations a frontend did not acknowledge")
                .tag("target", frontend.toString())
                .register(meters)
                .increment();
        if (failing.add(frontend)) {
            log.warn(
                    "Frontend {} did not take the invalidation of book {} version {} ({}; further failures are only"
                            + " counted in agora.invalidation.failures until it recovers): {}",
                    frontend,
                    change.bookId(),
                    change.version(),
                    waitsForLease ? "waiting for its lease to run out" : "it is down",
                    why);
        }
    }

    private static void sleepUntil(long nanos) {
        long left = nanos - System.nanoTime();
        if (left <= 0) return;
        try {
            TimeUnit.NANOSECONDS.sleep(left);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether a session opened after announcement {@code openedAfter} may be granted a lease now. */
    boolean grantable(long openedAfter) {
        // ceiling, not isEmpty() then first(): an announcement ending in between empties the set, first() then throws,
        // and the exception, thrown in the session's listener, ended the session (and emptied the frontend's cache).
        Long oldest = inFlight.ceiling(Long.MIN_VALUE);
        return oldest == null || oldest > openedAfter;
    }

    /** A session per frontend discovery lists now. */
    private List<FrontendSession> sessions() {
        List<FrontendSession> current = new ArrayList<>();
        for (ServiceInstance instance : discovery.getInstances(InvalidationProperties.SERVICE_ID)) {
            current.add(sessions.computeIfAbsent(instance.getUri(), this::session));
        }
        return current;
    }

    private FrontendSession session(URI frontend) {
        return new FrontendSession(
                frontend,
                http,
                connectTimeout,
                properties.lease(),
                tokens::bearer,
                this::grantable,
                announcements::get,
                writes);
    }

    private void reconnectAll() {
        try {
            for (FrontendSession session : sessions()) session.connectInBackground();
        } catch (RuntimeException e) {
            log.debug("Reopening invalidation sessions failed", e);
        }
    }

    @Override
    public void close() {
        reconnects.shutdownNow();
        sessions.values().forEach(FrontendSession::close);
        writes.shutdown();
    }
}
