package dev.agora.frontend.web.trade;

import dev.agora.common.limits.BoundedExecutors;
import dev.agora.frontend.web.ApiProblem;
import dev.agora.frontend.web.SessionTokens;
import dev.agora.frontend.web.WebSettings;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.core.Authentication;
import org.springframework.session.Session;
import org.springframework.session.SessionRepository;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import org.thymeleaf.ITemplateEngine;
import org.thymeleaf.context.Context;

/**
 * Live desks. Each open stream asks the exchange (through the public API, as the person) for the book and the
 * person's orders every {@code WebSettings#deskPollInterval} (500 ms), draws them with the page's own fragments, and sends a
 * fragment only when it changed, as Server-Sent Events the page's script swaps in.
 *
 * <p>Why polling here rather than a feed from the exchange: the exchange has no change feed a reader may subscribe to
 * (its sequencer reports batches by count to one observer, its metrics), and its engine is another team's to change.
 * Polling costs one small read per desk per interval, bounded by {@code WebSettings#deskStreamLimit} streams; a feed
 * pushed from the exchange's commit would replace {@link #tick} without changing the page.
 *
 * <p>Why every tick first writes a comment line ({@code ":\n\n"}, three bytes the page's EventSource ignores): a
 * server learns that a browser has gone only when a write to it fails. A stream that wrote only when the book or the
 * orders changed kept asking the exchange, as the person, twice a second for a tab closed long ago, and held one of the
 * {@code WebSettings#deskStreamLimit} slots until its timeout: a few hundred closed tabs locked everyone else out of
 * live desks for minutes. Written before the reads, the comment ends a gone browser's stream within a tick or two (its
 * slot released, its task cancelled) and no exchange read is made for it. A stream that never started sending (the
 * request ended before its response did, so no timeout of the container runs for it) is ended by a deadline of its own
 * a little past the timeout.
 *
 * <p>Why a stream asks the shared session store whether its session still exists: the session it holds is the copy
 * its request loaded, and a sign-out in another tab, or through the other frontend, deletes the session from the
 * store without touching that copy. Before the check a signed-out person's desk kept streaming, with tokens renewed
 * from the copy, until the stream's timeout five minutes later. One read by key every
 * {@code WebSettings#deskSessionCheckInterval}, so a sign-out ends every stream of the session within that.
 */
final class DeskStreams implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DeskStreams.class);

    private final Desk desk;
    private final SessionTokens tokens;
    private final SessionRepository<? extends Session> sessions;
    private final ITemplateEngine templates;
    private final WebSettings settings;
    private final ScheduledThreadPoolExecutor ticks;
    private final Semaphore open;
    private final Counter refused;

    /**
     * @param ticks the threads that run every stream's reads; their delay queue holds one task per open stream,
     *     so the stream limit bounds it
     */
    DeskStreams(
            Desk desk,
            SessionTokens tokens,
            SessionRepository<? extends Session> sessions,
            ITemplateEngine templates,
            WebSettings settings,
            ScheduledThreadPoolExecutor ticks,
            MeterRegistry meters) {
        this.desk = desk;
        this.tokens = tokens;
        this.sessions = sessions;
        this.templates = templates;
        this.settings = settings;
        this.ticks = BoundedExecutors.monitor(meters, ticks, "agora.web.desk-streams");
        this.open = new Semaphore(settings.deskStreamLimit());
        int limit = settings.deskStreamLimit();
        Gauge.builder("agora.web.desk.streams", open, streams -> limit - streams.availablePermits())
                .description("Live desk streams open")
                .register(meters);
        Gauge.builder("agora.web.desk.streams.capacity", () -> limit)
                .description("Live desk streams open at most")
                .register(meters);
        this.refused = Counter.builder("agora.web.desk.streams.rejected")
                .description("Live desks refused with 503 because the limit was reached")
                .register(meters);
    }

    SseEmitter open(String symbol, HttpSession session, Authentication person, String csrfName, String csrfToken) {
        if (!open.tryAcquire()) {
            refused.increment();
            throw ApiProblem.unavailableForNow("Too many live desks are open; the page still works with reloads");
        }
        SseEmitter emitter = new SseEmitter(settings.deskStreamTimeout().toMillis());
        Stream stream = new Stream(emitter, symbol, session, person, csrfName, csrfToken);
        // Ending is idempotent: the emitter's callbacks, a failed write and the deadline may each end the stream.
        emitter.onCompletion(stream::end);
        emitter.onTimeout(stream::end);
        emitter.onError(failure -> stream.end());
        long every = settings.deskPollInterval().toMillis();
        try {
            stream.task.set(ticks.scheduleWithFixedDelay(() -> tick(stream), 0, every, TimeUnit.MILLISECONDS));
        } catch (RejectedExecutionException closing) {
            open.release();
            throw ApiProblem.unavailableForNow("The live desk is closing; the page still works with reloads");
        }
        return emitter;
    }

    private final class Stream {
        final SseEmitter emitter;
        final String symbol;
        final HttpSession session;
        final Authentication person;
        final String csrfName;
        final String csrfToken;
        /**
         * When the stream is ended whatever happened to its request: a tick past the timeout, in case the emitter's
         * own timeout never runs (the response never started).
         */
        final long deadline;

        final AtomicReference<ScheduledFuture<?>> task = new AtomicReference<>();
        /**
         * When the shared store is asked next whether the session still exists: not at once, the stream's request has
         * just loaded it from there.
         */
        long nextSessionCheck =
                System.nanoTime() + settings.deskSessionCheckInterval().toNanos();

        String lastBook;
        String lastMine;

        Stream(
                SseEmitter emitter,
                String symbol,
                HttpSession session,
                Authentication person,
                String csrfName,
                String csrfToken) {
            this.emitter = emitter;
            this.symbol = symbol;
            this.session = session;
            this.person = person;
            this.csrfName = csrfName;
            this.csrfToken = csrfToken;
            this.deadline = System.nanoTime()
                    + settings.deskStreamTimeout()
                            .plus(settings.deskPollInterval())
                            .toNanos();
        }

        /** Stops the polls and gives the slot back, once however many times it is called. */
        void end() {
            ScheduledFuture<?> scheduled = task.getAndSet(null);
            if (scheduled != null) {
                scheduled.cancel(false);
                open.release();
            }
        }
    }

    private void tick(Stream stream) {
        SseEmitter emitter = stream.emitter;
        if (System.nanoTime() - stream.deadline > 0 || signedOut(stream)) {
            emitter.complete();
            stream.end();
            return;
        }
        try {
            // Before the reads: a browser that left fails this write, and the exchange is not asked on its behalf.
            emitter.send(SseEmitter.event().comment(""));
            String bearer = tokens.bearer(stream.session, stream.person);
            Context context = new Context();
            context.setVariables(Map.of(
                    "csrfName",
                    stream.csrfName,
                    "csrfToken",
                    stream.csrfToken,
                    "symbol",
                    stream.symbol == null ? "" : stream.symbol));
            if (stream.symbol != null) {
                context.setVariable("book", desk.book(stream.symbol, bearer));
                String book = templates.process("trade/parts", Set.of("book"), context);
                if (!book.equals(stream.lastBook)) {
                    emitter.send(SseEmitter.event().name("book").data(oneLine(book)));
                    stream.lastBook = book;
                }
            }
            context.setVariable("desk", desk.desk(RecentOrders.of(stream.session), bearer));
            String mine = templates.process("trade/parts", Set.of("mine"), context);
            if (!mine.equals(stream.lastMine)) {
                emitter.send(SseEmitter.event().name("mine").data(oneLine(mine)));
                stream.lastMine = mine;
            }
        } catch (ApiProblem problem) {
            // The exchange is away or refused this once: the page keeps what it shows, the next tick asks again.
            log.debug("A live desk's read failed: {}", problem.detail());
        } catch (IOException | IllegalStateException gone) {
            // The browser left (or the session ended, or the emitter was already done). The emitter's callbacks may
            // or may not follow (a failed send leaves it to the container to report), so end the stream here too.
            emitter.completeWithError(gone);
            stream.end();
        } catch (RuntimeException unexpected) {
            // Such as the person's account disabled (their session was ended with it).
            log.warn("A live desk stream failed", unexpected);
            emitter.completeWithError(unexpected);
            stream.end();
        }
    }

    /** Whether the stream's session is gone from the shared store (signed out, or expired), asked at most so often. */
    private boolean signedOut(Stream stream) {
        long now = System.nanoTime();
        if (now - stream.nextSessionCheck < 0) return false;
        stream.nextSessionCheck = now + settings.deskSessionCheckInterval().toNanos();
        try {
            return sessions.findById(stream.session.getId()) == null;
        } catch (RuntimeException storeAway) {
            // The session store did not answer this once: keep the stream, the next check asks again.
            log.debug("A live desk could not check its session: {}", storeAway.toString());
            return false;
        }
    }

    /** SSE data lines cannot hold a newline unescaped; the fragments' line breaks are only layout. */
    private static String oneLine(String html) {
        return html.replaceAll("\\s*\\R\\s*", " ");
    }

    @Override
    public void close() {
        ticks.shutdownNow();
    }
}
