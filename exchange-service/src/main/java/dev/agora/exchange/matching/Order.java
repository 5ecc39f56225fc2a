package dev.agora.exchange.matching;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * A limit order. Quantities are kept unsigned with a side flag; the protocol's signs are applied in
 * {@link #snapshot}. The order is also a node of its price level's intrusive list, so cancel is O(1).
 *
 * <p>It keeps at most a few of its executions ({@link MemoryLimits#fillsKeptPerOrder()}); past that it keeps none
 * and its executions are read from the store when asked for, so an order hit by a million tiny fills costs the same
 * memory as one hit by ten.
 */
public final class Order {

    private final long id;
    private final Account owner;
    private final String symbol;
    private final boolean buy;
    private final BigDecimal shares;
    private final BigDecimal limit;
    private BigDecimal open;
    private BigDecimal canceledShares;
    private long canceledAt;
    private List<Fill> fills = List.of();
    /** The placing client's idempotency key (REST placements that carry one); null for none. */
    private String clientKey;
    /** True once the executions are too many to keep: the store has them all. */
    private boolean fillsStored;

    PriceLevel level;
    Order previous;
    Order next;

    Order(long id, Account owner, String symbol, boolean buy, BigDecimal shares, BigDecimal limit) {
        this.id = id;
        this.owner = owner;
        this.symbol = symbol;
        this.buy = buy;
        this.shares = shares;
        this.limit = limit;
        this.open = shares;
    }

    public String clientKey() {
        return clientKey;
    }

    void keyedBy(String clientKey) {
        this.clientKey = clientKey;
    }

    public long id() {
        return id;
    }

    public String accountId() {
        return owner.id();
    }

    Account owner() {
        return owner;
    }

    public String symbol() {
        return symbol;
    }

    public boolean isBuy() {
        return buy;
    }

    /** Signed amount as placed: positive for a buy, negative for a sell. */
    public BigDecimal amount() {
        return buy ? shares : shares.negate();
    }

    public BigDecimal limit() {
        return limit;
    }

    /** Unsigned shares still waiting in the book. */
    public BigDecimal open() {
        return open;
    }

    public boolean isOpen() {
        return open.signum() > 0;
    }

    /** Unsigned shares taken out by a cancel, or null when never canceled. */
    public BigDecimal canceledShares() {
        return canceledShares;
    }

    public long canceledAt() {
        return canceledAt;
    }

    /** The executions kept in memory; empty when they are {@linkplain #fillsStored() stored only}. */
    public List<Fill> fills() {
        return fills;
    }

    /** Whether the executions are read from the store rather than kept here. */
    public boolean fillsStored() {
        return fillsStored;
    }

    /**
     * The order as a reply shows it.
     *
     * @param lastExecutionId the engine's last execution id now: where stored executions end for this snapshot
     */
    public OrderSnapshot snapshot(long lastExecutionId) {
        List<OrderSnapshot.SignedFill> signedFills = new ArrayList<>(fills.size());
        for (Fill fill : fills) {
            signedFills.add(new OrderSnapshot.SignedFill(signed(fill.shares()), fill.price(), fill.time()));
        }
        return new OrderSnapshot(
                id,
                owner.id(),
                symbol,
                amount(),
                limit,
                isOpen() ? signed(open) : null,
                canceledShares == null ? null : new OrderSnapshot.Cancellation(signed(canceledShares), canceledAt),
                signedFills,
                fillsStored ? lastExecutionId : 0);
    }

    private BigDecimal signed(BigDecimal unsigned) {
        return buy ? unsigned : unsigned.negate();
    }

    void fill(Fill fill, int fillsKept) {
        open = open.subtract(fill.shares());
        if (fillsStored) return;
        if (fills.size() >= fillsKept) {
            fillsStored = true;
            fills = List.of();
            return;
        }
        if (fills.isEmpty()) fills = new ArrayList<>(2);
        fills.add(fill);
    }

    void cancel(long time) {
        canceledShares = open;
        canceledAt = time;
        open = BigDecimal.ZERO;
    }

    /** An open order reloaded from the store: its executions, if it has any, stay there. */
    void restoreOpen(BigDecimal openShares) {
        this.open = openShares;
        this.fillsStored = openShares.compareTo(shares) < 0;
    }
}
