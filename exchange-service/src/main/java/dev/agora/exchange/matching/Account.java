package dev.agora.exchange.matching;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * An account: its owner, its free cash and its positions. Owned by the engine's single writer thread.
 */
public final class Account {

    private final String id;
    private final String owner;
    private BigDecimal balance;
    private final Map<String, BigDecimal> positions = new HashMap<>();
    /** The account's latest closed orders, a ring written at {@link #nextClosed}; null until the first one closes. */
    private Order[] latestClosed;

    private int nextClosed;

    Account(String id, String owner, BigDecimal balance) {
        this.id = id;
        this.owner = owner;
        this.balance = balance;
    }

    public String id() {
        return id;
    }

    /**
     * The user the account belongs to (the subject of their token), fixed when the account is created; null for
     * an account created over the XML protocol, which carries no identities.
     */
    public String owner() {
        return owner;
    }

    /** Whether {@code user} is this account's owner; never true for an account without one. */
    public boolean isOwnedBy(String user) {
        return owner != null && owner.equals(user);
    }

    /** Cash not reserved by open buy orders. */
    public BigDecimal balance() {
        return balance;
    }

    /** Shares per symbol, not counting shares held back by open sell orders. */
    public Map<String, BigDecimal> positions() {
        return Collections.unmodifiableMap(positions);
    }

    public BigDecimal shares(String symbol) {
        return positions.get(symbol);
    }

    void credit(BigDecimal cash) {
        balance = balance.add(cash);
    }

    void debit(BigDecimal cash) {
        balance = balance.subtract(cash);
    }

    void addShares(String symbol, BigDecimal shares) {
        positions.merge(symbol, shares, BigDecimal::add);
    }

    void removeShares(String symbol, BigDecimal shares) {
        positions.put(symbol, positions.get(symbol).subtract(shares));
    }

    /**
     * Keeps {@code order}, just closed, among the account's latest {@code kept}, forgetting the oldest of them.
     *
     * @return whether the account now keeps one more than before (false once its {@code kept} are all in use)
     */
    boolean closed(Order order, int kept) {
        if (kept == 0) return false;
        if (latestClosed == null) latestClosed = new Order[kept];
        boolean added = latestClosed[nextClosed] == null;
        latestClosed[nextClosed] = order;
        nextClosed = (nextClosed + 1) % latestClosed.length;
        return added;
    }

    /** One of the account's latest closed orders, or null when it is not among them. */
    Order latestClosed(long orderId) {
        if (latestClosed == null) return null;
        for (Order order : latestClosed) {
            if (order != null && order.id() == orderId) return order;
        }
        return null;
    }

    void restorePosition(String symbol, BigDecimal shares) {
        positions.put(symbol, shares);
    }
}
