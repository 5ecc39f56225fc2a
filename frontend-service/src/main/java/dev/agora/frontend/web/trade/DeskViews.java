package dev.agora.frontend.web.trade;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/** What the desk reads from the exchange's API (through the frontend's {@code /api/exchange}). */
final class DeskViews {

    private DeskViews() {}

    record Mine(String user, List<Account> accounts, List<OpenOrder> openOrders) {}

    record Account(String id, BigDecimal balance, Map<String, BigDecimal> positions) {}

    record OpenOrder(
            long id,
            String accountId,
            String symbol,
            BigDecimal amount,
            BigDecimal limit,
            BigDecimal open,
            List<Executed> executions,
            boolean executionsStored) {

        public String side() {
            return amount.signum() >= 0 ? "Buy" : "Sell";
        }

        public BigDecimal shares() {
            return amount.abs();
        }
    }

    record Executed(BigDecimal shares, BigDecimal price, long time) {

        public BigDecimal quantity() {
            return shares.abs();
        }
    }

    record Book(String symbol, List<Level> bids, List<Level> asks) {}

    record Level(BigDecimal price, BigDecimal shares, int orders) {}

    /** An order as {@code GET /api/exchange/accounts/{a}/orders/{id}} answers: open, filled or canceled. */
    record Order(
            long id,
            String accountId,
            String symbol,
            BigDecimal amount,
            BigDecimal limit,
            BigDecimal open,
            Canceled canceled,
            List<Executed> executions) {

        public String side() {
            return amount.signum() >= 0 ? "Buy" : "Sell";
        }

        public BigDecimal shares() {
            return amount.abs();
        }

        public String state() {
            if (canceled != null) return "Canceled";
            if (open != null && open.signum() != 0) return executions.isEmpty() ? "Open" : "Partly filled";
            return "Filled";
        }
    }

    record Canceled(BigDecimal shares, long time) {}

    record PlaceOrder(String symbol, BigDecimal amount, BigDecimal limit) {}

    /** Everything of the person's that the desk shows below the book. */
    record Desk(Mine mine, List<Order> recent) {}
}
