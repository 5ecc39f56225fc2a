package dev.agora.exchange.store;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.Objects;

/** The shares of one symbol one account holds, keyed by both. */
@Entity
@Table(name = "position")
@IdClass(PositionRow.Key.class)
public class PositionRow {

    @Id
    @Column(name = "account_id")
    String accountId;

    @Id
    @Column(name = "symbol")
    String symbol;

    @Column(name = "shares")
    BigDecimal shares;

    protected PositionRow() {}

    PositionRow(String accountId, String symbol, BigDecimal shares) {
        this.accountId = accountId;
        this.symbol = symbol;
        this.shares = shares;
    }

    public String accountId() {
        return accountId;
    }

    public String symbol() {
        return symbol;
    }

    public BigDecimal shares() {
        return shares;
    }

    /** A position's identity: account and symbol. */
    public static class Key implements Serializable {

        String accountId;
        String symbol;

        protected Key() {}

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && accountId.equals(key.accountId) && symbol.equals(key.symbol);
        }

        @Override
        public int hashCode() {
            return Objects.hash(accountId, symbol);
        }
    }
}
