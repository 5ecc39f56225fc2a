package dev.agora.exchange.matching;

import java.math.BigDecimal;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;

/** The open orders of one symbol: bids best (highest) first, asks best (lowest) first. */
final class OrderBook {

    /** The symbol's one string, shared by every order of the book (a request's parsed copy is not kept). */
    final String symbol;

    private final TreeMap<BigDecimal, PriceLevel> bids = new TreeMap<>(Comparator.reverseOrder());
    private final TreeMap<BigDecimal, PriceLevel> asks = new TreeMap<>();

    OrderBook(String symbol) {
        this.symbol = symbol;
    }

    /** The best level an incoming order on the given side could trade with, or null. */
    PriceLevel bestOpposite(boolean incomingBuy) {
        Map.Entry<BigDecimal, PriceLevel> best = (incomingBuy ? asks : bids).firstEntry();
        return best == null ? null : best.getValue();
    }

    void rest(Order order) {
        TreeMap<BigDecimal, PriceLevel> side = order.isBuy() ? bids : asks;
        PriceLevel level = side.get(order.limit());
        if (level == null) {
            level = new PriceLevel(order.limit());
            side.put(order.limit(), level);
        }
        level.append(order);
    }

    void remove(Order order) {
        PriceLevel level = order.level;
        level.remove(order);
        if (level.isEmpty()) (order.isBuy() ? bids : asks).remove(level.price);
    }
}
