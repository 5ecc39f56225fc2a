package dev.agora.exchange.xml;

import dev.agora.exchange.history.OrderHistory;
import dev.agora.exchange.sequencer.Sequencer;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.FastThreadLocal;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** What every connection of one XML server shares: settings, the engine's edges, the bounds and their counters. */
final class XmlServerContext {

    enum Timeout {
        READ,
        DEADLINE,
        REPLY,
        WRITE,
        IDLE
    }

    private final XmlProtocolServer.Settings settings;
    private final Sequencer sequencer;
    private final OrderHistory history;
    private final ThreadLocal<XmlRequestParser> parsers;
    private final FastThreadLocal<ConnectionClock> clocks = new FastThreadLocal<>();
    private final XmlReplyWriter writer = new XmlReplyWriter();
    private final AtomicLong pendingReplyBytes = new AtomicLong();
    private final AtomicLong refusedForReplyBudget = new AtomicLong();
    private final Map<Timeout, AtomicLong> timeouts = new EnumMap<>(Timeout.class);

    XmlServerContext(XmlProtocolServer.Settings settings, Sequencer sequencer, OrderHistory history) {
        this.settings = settings;
        this.sequencer = sequencer;
        this.history = history;
        this.parsers = ThreadLocal.withInitial(() -> new XmlRequestParser(settings.maxItems()));
        for (Timeout timeout : Timeout.values()) timeouts.put(timeout, new AtomicLong());
    }

    XmlProtocolServer.Settings settings() {
        return settings;
    }

    Sequencer sequencer() {
        return sequencer;
    }

    OrderHistory history() {
        return history;
    }

    /** The parser of the calling event-loop thread (parsers are not thread-safe). */
    XmlRequestParser parser() {
        return parsers.get();
    }

    /** The clock of the calling event loop's connections (called on that loop's thread). */
    ConnectionClock clock(EventExecutor loop) {
        ConnectionClock clock = clocks.get();
        if (clock == null || clock.loop() != loop) {
            clock = new ConnectionClock(loop);
            clocks.set(clock);
        }
        return clock;
    }

    XmlReplyWriter writer() {
        return writer;
    }

    void replyBytesPending(long delta) {
        pendingReplyBytes.addAndGet(delta);
    }

    long pendingReplyBytes() {
        return pendingReplyBytes.get();
    }

    /**
     * Reserves room for the reply of a request about to be applied: {@code bytes}, an estimate made from the request
     * (each child's reply is small; only what a child echoes grows it, and that is bounded by the request's own
     * size). Refused when replies not yet taken by their clients, with those reserved for requests in flight, would
     * hold more than the budget: the request is then answered "busy" before it is applied, so clients that never
     * read cannot pile replies up in memory, not even all at once. One request is always admitted when nothing is
     * pending.
     */
    boolean reserveReplyBytes(long bytes) {
        while (true) {
            long pending = pendingReplyBytes.get();
            if (pending > 0 && pending + bytes > settings.maxPendingReplyBytes()) {
                refusedForReplyBudget.incrementAndGet();
                return false;
            }
            if (pendingReplyBytes.compareAndSet(pending, pending + bytes)) return true;
        }
    }

    long refusedForReplyBudget() {
        return refusedForReplyBudget.get();
    }

    void timedOut(Timeout timeout) {
        timeouts.get(timeout).incrementAndGet();
    }

    long timeouts(Timeout timeout) {
        return timeouts.get(timeout).get();
    }
}
