package dev.agora.exchange.desk;

import io.swagger.v3.oas.annotations.media.Schema;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/** What a trading desk shows, as the exchange's JSON API answers it. Quantities are exact decimals. */
final class DeskViews {

    private DeskViews() {}

    /** The caller's accounts and their open orders. */
    record Mine(String user, List<AccountView> accounts, List<OpenOrder> openOrders) {}

    /** {@code balance} is free cash, without what open buys reserve. */
    // Named apart from the account API's AccountView (with its owner), which would otherwise share its schema.
    @Schema(name = "DeskAccount")
    record AccountView(String id, BigDecimal balance, Map<String, BigDecimal> positions) {}

    /**
     * An open order; {@code amount} is signed (positive buys, negative sells), {@code open} unsigned.
     *
     * @param executions those the engine keeps; {@code executionsStored} says there are more (ask the order itself)
     */
    record OpenOrder(
            long id,
            String accountId,
            String symbol,
            BigDecimal amount,
            BigDecimal limit,
            BigDecimal open,
            List<Executed> executions,
            boolean executionsStored) {}

    record Executed(BigDecimal shares, BigDecimal price, long time) {}

    /** One symbol's book: bids best (highest) first, asks best (lowest) first. */
    record Book(String symbol, List<Level> bids, List<Level> asks) {}

    /** A price level: the shares open at that price and how many orders hold them. */
    record Level(BigDecimal price, BigDecimal shares, int orders) {}
}
