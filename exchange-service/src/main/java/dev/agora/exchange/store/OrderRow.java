package dev.agora.exchange.store;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;

/**
 * A limit order as PostgreSQL holds it. Amount, limit, account, symbol and idempotency key never change after the
 * order is placed, so an update writes only what fills and cancels change: the open shares and the cancellation.
 * Amounts keep their sign (negative for sells); open and canceled shares are unsigned.
 */
@Entity
@Table(name = "exchange_order")
public class OrderRow {

    @Id
    @Column(name = "id")
    long id;

    @Column(name = "account_id", updatable = false)
    String accountId;

    @Column(name = "symbol", updatable = false)
    String symbol;

    @Column(name = "amount", updatable = false)
    BigDecimal amount;

    @Column(name = "limit_price", updatable = false)
    BigDecimal limitPrice;

    @Column(name = "open_shares")
    BigDecimal openShares;

    @Column(name = "canceled_shares")
    BigDecimal canceledShares;

    @Column(name = "canceled_at")
    Long canceledAt;

    @Column(name = "client_key", updatable = false)
    String clientKey;

    protected OrderRow() {}

    /** A new order, every column. */
    OrderRow(
            long id,
            String accountId,
            String symbol,
            BigDecimal amount,
            BigDecimal limitPrice,
            BigDecimal openShares,
            BigDecimal canceledShares,
            Long canceledAt,
            String clientKey) {
        this.id = id;
        this.accountId = accountId;
        this.symbol = symbol;
        this.amount = amount;
        this.limitPrice = limitPrice;
        this.openShares = openShares;
        this.canceledShares = canceledShares;
        this.canceledAt = canceledAt;
        this.clientKey = clientKey;
    }

    /** A change of an order already written: only the columns an update writes. */
    static OrderRow progress(long id, BigDecimal openShares, BigDecimal canceledShares, Long canceledAt) {
        return new OrderRow(id, null, null, null, null, openShares, canceledShares, canceledAt, null);
    }

    public long id() {
        return id;
    }

    public String accountId() {
        return accountId;
    }

    public String symbol() {
        return symbol;
    }

    public BigDecimal amount() {
        return amount;
    }

    public BigDecimal limitPrice() {
        return limitPrice;
    }

    public BigDecimal openShares() {
        return openShares;
    }

    public String clientKey() {
        return clientKey;
    }
}
