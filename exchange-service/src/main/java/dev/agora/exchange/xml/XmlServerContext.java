package dev.agora.exchange.xml;

import dev.agora.exchange.history.OrderHistory;
import dev.agora.exchange.sequencer.Sequencer;
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
     * Whether replies not yet taken by their clients hold more bytes than the budget: then a new request is refused
     * before it is applied, so clients that never read cannot pile replies up in memory.
     */
    boolean replyBudgetExceeded() {
        if (pendingReplyBytes.get() <= settings.maxPendingReplyBytes()) return false;
        refusedForReplyBudget.incrementAndGet();
        return true;
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
