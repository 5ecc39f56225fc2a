package dev.agora.exchange.xml;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many XML connections are open, in all and per client address, and whether one more may open: a global cap
 * keeps the process's sockets and memory bounded, a per-address cap keeps one client from taking every slot.
 * Connections from other addresses are still served while one address is at its cap.
 */
final class ConnectionLimits {

    enum Refusal {
        GLOBAL("server busy, try again"),
        ADDRESS("too many connections from this address, try again");

        final String message;

        Refusal(String message) {
            this.message = message;
        }
    }

    private final int maxConnections;
    private final int maxPerAddress;
    private final AtomicInteger open = new AtomicInteger();
    private final ConcurrentHashMap<InetAddress, Integer> perAddress = new ConcurrentHashMap<>();
    private final AtomicLong refusedGlobal = new AtomicLong();
    private final AtomicLong refusedAddress = new AtomicLong();

    ConnectionLimits(int maxConnections, int maxPerAddress) {
        this.maxConnections = maxConnections;
        this.maxPerAddress = maxPerAddress;
    }

    /** Takes a slot for a new connection from {@code address}; null when it may open, else why not. */
    Refusal tryOpen(InetAddress address) {
        if (open.incrementAndGet() > maxConnections) {
            open.decrementAndGet();
            refusedGlobal.incrementAndGet();
            return Refusal.GLOBAL;
        }
        boolean[] admitted = {false};
        perAddress.compute(address, (key, count) -> {
            int current = count == null ? 0 : count;
            if (current >= maxPerAddress) return count;
            admitted[0] = true;
            return current + 1;
        });
        if (!admitted[0]) {
            open.decrementAndGet();
            refusedAddress.incrementAndGet();
            return Refusal.ADDRESS;
        }
        return null;
    }

    /** Gives back the slot of a connection that {@link #tryOpen} admitted. */
    void closed(InetAddress address) {
        perAddress.computeIfPresent(address, (key, count) -> count <= 1 ? null : count - 1);
        open.decrementAndGet();
    }

    int open() {
        return open.get();
    }

    int addresses() {
        return perAddress.size();
    }

    long refused(Refusal reason) {
        return reason == Refusal.GLOBAL ? refusedGlobal.get() : refusedAddress.get();
    }
}
