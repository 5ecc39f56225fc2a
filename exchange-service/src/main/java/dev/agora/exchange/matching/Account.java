package dev.agora.exchange.matching;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/** An account: its free cash and its positions. Owned by the engine's single writer thread. */
public final class Account {

    private final String id;
    private BigDecimal balance;
    private final Map<String, BigDecimal> positions = new HashMap<>();

    Account(String id, BigDecimal balance) {
        this.id = id;
        this.balance = balance;
    }

    public String id() {
        return id;
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

    void restorePosition(String symbol, BigDecimal shares) {
        positions.put(symbol, shares);
    }
}
