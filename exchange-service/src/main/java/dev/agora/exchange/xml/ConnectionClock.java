package dev.agora.exchange.xml;

import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The timeouts of the connections of one event loop, checked by one task every {@link #TICK_MILLIS} instead of a
 * timer per phase per connection. A connection of the seed's workload lives a millisecond or so; Netty's
 * {@code IdleStateHandler}, {@code WriteTimeoutHandler} and a scheduled deadline and reply timeout made five timers for
 * each, every one allocated, queued and cancelled on the event loop, and moving the loop's timer deadline back and
 * forth. Here a connection costs two pointer updates to join and leave the list, and the task runs only while the
 * loop has connections. Timeouts fire up to one tick late, like the selector loop's sweep this server replaced.
 *
 * <p>Event-loop thread only, like the connections it holds.
 */
final class ConnectionClock {

    /** How often the connections' deadlines are checked: their resolution. */
    static final long TICK_MILLIS = 20;

    private final EventExecutor loop;
    private final Runnable tick = this::tick;
    private XmlConnection first;
    private XmlConnection last;
    private boolean ticking;

    ConnectionClock(EventExecutor loop) {
        this.loop = loop;
    }

    EventExecutor loop() {
        return loop;
    }

    void add(XmlConnection connection) {
        connection.previous = last;
        connection.next = null;
        if (last == null) first = connection;
        else last.next = connection;
        last = connection;
        if (!ticking) schedule();
    }

    void remove(XmlConnection connection) {
        if (connection.previous == null && first != connection) return;
        if (connection.previous == null) first = connection.next;
        else connection.previous.next = connection.next;
        if (connection.next == null) last = connection.previous;
        else connection.next.previous = connection.previous;
        connection.previous = null;
        connection.next = null;
    }

    private void tick() {
        long now = System.nanoTime();
        XmlConnection connection = first;
        while (connection != null) {
            // Checking may close the connection, which takes it out of the list.
            XmlConnection next = connection.next;
            connection.checkTimeouts(now);
            connection = next;
        }
        ticking = false;
        if (first != null) schedule();
    }

    private void schedule() {
        // A loop shutting down closes its connections itself.
        if (loop.isShuttingDown()) return;
        ticking = true;
        loop.schedule(tick, TICK_MILLIS, TimeUnit.MILLISECONDS);
    }
}
