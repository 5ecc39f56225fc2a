package dev.agora.exchange.support;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/** Fresh account ids and symbols, so tests sharing one exchange never see each other's state. */
public final class Ids {

    private static final AtomicLong NEXT =
            new AtomicLong(ThreadLocalRandom.current().nextLong(1_000_000, 9_000_000));
    private static final String RUN = Long.toString(ThreadLocalRandom.current().nextLong(100_000, 999_999));

    private Ids() {}

    public static String account() {
        return RUN + NEXT.incrementAndGet();
    }

    public static String symbol() {
        return "T" + RUN + "x" + NEXT.incrementAndGet();
    }
}
