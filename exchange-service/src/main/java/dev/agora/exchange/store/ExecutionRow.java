package dev.agora.exchange.store;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import org.hibernate.annotations.Immutable;

/** One trade between a buy and a sell order: written once, never changed. */
@Entity
@Immutable
@Table(name = "execution")
public class ExecutionRow {

    @Id
    @Column(name = "id")
    long id;

    @Column(name = "buy_order_id")
    long buyOrderId;

    @Column(name = "sell_order_id")
    long sellOrderId;

    @Column(name = "symbol")
    String symbol;

    @Column(name = "shares")
    BigDecimal shares;

    @Column(name = "price")
    BigDecimal price;

    @Column(name = "executed_at")
    long executedAt;

    protected ExecutionRow() {}

    ExecutionRow(
            long id, long buyOrderId, long sellOrderId, String symbol, BigDecimal shares, BigDecimal price, long at) {
        this.id = id;
        this.buyOrderId = buyOrderId;
        this.sellOrderId = sellOrderId;
        this.symbol = symbol;
        this.shares = shares;
        this.price = price;
        this.executedAt = at;
    }
}
