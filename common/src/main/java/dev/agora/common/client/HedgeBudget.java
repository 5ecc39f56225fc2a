package dev.agora.common.client;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How many hedges a service's calls may still send, as a retry budget (Finagle's, or gRPC's retry throttling):
 * every answered attempt earns {@code percent}% of a hedge, every hedge spends a whole one, and the balance never
 * exceeds {@code burst} hedges. It starts full, so the first hedges after a start, enough to find a frozen replica,
 * are always there.
 *
 * <p>Why a budget: the hedge delay follows the service's recent answer times only up to its cap. Once a service is
 * slower than that (overloaded, or every replica still cold after a start), every call would be hedged, doubling
 * the load on the very replicas whose slowness caused it, and the service would stay slow after the burst that
 * slowed it has passed. With the budget, hedging adds at most about {@code percent}% to the load, however slow the
 * replicas get. Repeating a failed attempt elsewhere (failover) is not hedging and is not limited by it.
 */
final class HedgeBudget {

    /** Balances are kept in thousandths of a hedge, so that a tenth of one can be earned exactly. */
    private static final long ONE_HEDGE = 1000;

    private final long earnedPerAnswer;
    private final long capacity;
    private final AtomicLong balance;

    HedgeBudget(int percent, int burst) {
        if (percent < 0 || percent > 100) throw new IllegalArgumentException("percent must be in [0, 100]");
        if (burst < 0) throw new IllegalArgumentException("burst must be >= 0");
        this.earnedPerAnswer = percent * ONE_HEDGE / 100;
        this.capacity = burst * ONE_HEDGE;
        this.balance = new AtomicLong(capacity);
    }

    /** An attempt was answered (a result or a 4xx): the service did work worth a share of a hedge. */
    void answered() {
        if (earnedPerAnswer == 0 || balance.get() >= capacity) return;
        balance.accumulateAndGet(earnedPerAnswer, (held, earned) -> Math.min(capacity, held + earned));
    }

    /** Takes one hedge from the budget; {@code false}, taking nothing, when less than one is left. */
    boolean trySpend() {
        while (true) {
            long held = balance.get();
            if (held < ONE_HEDGE) return false;
            if (balance.compareAndSet(held, held - ONE_HEDGE)) return true;
        }
    }

    /** Whole hedges that may be sent now. */
    long available() {
        return balance.get() / ONE_HEDGE;
    }
}
