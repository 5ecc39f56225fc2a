package dev.agora.exchange.matching;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * A limit order. Quantities are kept unsigned with a side flag; the protocol's signs are applied in
 * {@link #snapshot()}. The order is also a node of its price level's intrusive list, so cancel is O(1).
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

    public List<Fill> fills() {
        return fills;
    }

    public OrderSnapshot snapshot() {
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
                signedFills);
    }

    private BigDecimal signed(BigDecimal unsigned) {
        return buy ? unsigned : unsigned.negate();
    }

    void fill(Fill fill) {
        open = open.subtract(fill.shares());
        if (fills.isEmpty()) fills = new ArrayList<>(2);
        fills.add(fill);
    }

    void cancel(long time) {
        canceledShares = open;
        canceledAt = time;
        open = BigDecimal.ZERO;
    }

    void restore(BigDecimal openShares, BigDecimal canceled, long canceledTime) {
        this.open = openShares;
        this.canceledShares = canceled;
        this.canceledAt = canceledTime;
    }

    void restoreFill(Fill fill) {
        if (fills.isEmpty()) fills = new ArrayList<>(2);
        fills.add(fill);
    }
}
