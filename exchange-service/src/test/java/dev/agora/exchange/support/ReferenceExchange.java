package dev.agora.exchange.support;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A deliberately simple model of the exchange rules, for checking the real one: lists and linear scans,
 * no books, no cleverness. It predicts the exact XML reply to each request, given the order ids the server
 * assigned (ids are global, so the model takes them from the real reply in order).
 */
public final class ReferenceExchange {

    public static final class ModelOrder {
        final long id;
        final String account;
        final String symbol;
        final boolean buy;
        final BigDecimal limit;
        BigDecimal open;
        BigDecimal canceled;
        final List<BigDecimal[]> fills = new ArrayList<>();

        ModelOrder(long id, String account, String symbol, boolean buy, BigDecimal shares, BigDecimal limit) {
            this.id = id;
            this.account = account;
            this.symbol = symbol;
            this.buy = buy;
            this.open = shares;
            this.limit = limit;
        }

        public boolean buy() {
            return buy;
        }

        public BigDecimal open() {
            return open;
        }

        public BigDecimal limit() {
            return limit;
        }

        public String account() {
            return account;
        }

        public String symbol() {
            return symbol;
        }
    }

    public final Map<String, BigDecimal> balances = new LinkedHashMap<>();
    public final Map<String, Map<String, BigDecimal>> positions = new HashMap<>();
    public final Map<Long, ModelOrder> orders = new LinkedHashMap<>();

    public String createAccount(String id, String balanceText) {
        BigDecimal balance = number(balanceText);
        if (balance == null || balance.signum() < 0) {
            return "<error id=\"" + id + "\">balance must be a non-negative decimal</error>";
        }
        if (balances.containsKey(id)) return "<error id=\"" + id + "\">account already exists</error>";
        balances.put(id, balance);
        return "<created id=\"" + id + "\"/>";
    }

    public String addShares(String symbol, String account, String sharesText) {
        BigDecimal shares = number(sharesText);
        if (!balances.containsKey(account)) {
            return "<error sym=\"" + symbol + "\" id=\"" + account + "\">account does not exist</error>";
        }
        if (shares == null || shares.signum() <= 0) {
            return "<error sym=\"" + symbol + "\" id=\"" + account + "\">shares must be a positive decimal</error>";
        }
        positions.computeIfAbsent(account, a -> new HashMap<>()).merge(symbol, shares, BigDecimal::add);
        return "<created sym=\"" + symbol + "\" id=\"" + account + "\"/>";
    }

    public String order(String account, String symbol, String amountText, String limitText, List<Long> serverIds) {
        String echo = "sym=\"" + symbol + "\" amount=\"" + amountText + "\" limit=\"" + limitText + "\"";
        BigDecimal amount = number(amountText);
        BigDecimal limit = number(limitText);
        if (!balances.containsKey(account)) return "<error " + echo + ">account does not exist</error>";
        if (amount == null || amount.signum() == 0)
            return "<error " + echo + ">amount must be a non-zero decimal</error>";
        if (limit == null || limit.signum() <= 0) return "<error " + echo + ">limit must be a positive decimal</error>";
        boolean buy = amount.signum() > 0;
        BigDecimal shares = amount.abs();
        if (buy) {
            BigDecimal cost = shares.multiply(limit);
            if (balances.get(account).compareTo(cost) < 0) return "<error " + echo + ">insufficient funds</error>";
            balances.merge(account, cost.negate(), BigDecimal::add);
        } else {
            BigDecimal held = positions.getOrDefault(account, Map.of()).get(symbol);
            if (held == null || held.compareTo(shares) < 0) return "<error " + echo + ">insufficient shares</error>";
            positions.get(account).put(symbol, held.subtract(shares));
        }
        if (serverIds.isEmpty()) throw new AssertionError("model opened an order the server did not: " + echo);
        ModelOrder incoming = new ModelOrder(serverIds.removeFirst(), account, symbol, buy, shares, limit);
        orders.put(incoming.id, incoming);
        while (incoming.open.signum() > 0) {
            ModelOrder best = orders.values().stream()
                    .filter(o -> o.symbol.equals(symbol) && o.buy != buy && o.open.signum() > 0 && o.id != incoming.id)
                    .filter(o -> buy ? o.limit.compareTo(limit) <= 0 : o.limit.compareTo(limit) >= 0)
                    .min(Comparator.comparing((ModelOrder o) -> buy ? o.limit : o.limit.negate())
                            .thenComparing(o -> o.id))
                    .orElse(null);
            if (best == null) break;
            BigDecimal executed = incoming.open.min(best.open);
            BigDecimal price = best.limit;
            ModelOrder buyOrder = buy ? incoming : best;
            ModelOrder sellOrder = buy ? best : incoming;
            balances.merge(sellOrder.account, executed.multiply(price), BigDecimal::add);
            positions.computeIfAbsent(buyOrder.account, a -> new HashMap<>()).merge(symbol, executed, BigDecimal::add);
            balances.merge(buyOrder.account, executed.multiply(buyOrder.limit.subtract(price)), BigDecimal::add);
            incoming.open = incoming.open.subtract(executed);
            best.open = best.open.subtract(executed);
            incoming.fills.add(new BigDecimal[] {executed, price});
            best.fills.add(new BigDecimal[] {executed, price});
        }
        return "<opened " + echo + " id=\"" + incoming.id + "\"/>";
    }

    public String query(String account, String idText) {
        String failure = findFailure(account, idText);
        if (failure != null) return failure;
        ModelOrder order = orders.get(Long.parseLong(idText));
        return "<status id=\"" + idText + "\">" + state(order, true) + "</status>";
    }

    public String cancel(String account, String idText) {
        String failure = findFailure(account, idText);
        if (failure != null) return failure;
        ModelOrder order = orders.get(Long.parseLong(idText));
        if (order.open.signum() == 0) return "<error id=\"" + idText + "\">order has no open shares</error>";
        if (order.buy) balances.merge(account, order.open.multiply(order.limit), BigDecimal::add);
        else positions.get(account).merge(order.symbol, order.open, BigDecimal::add);
        order.canceled = order.open;
        order.open = BigDecimal.ZERO;
        return "<canceled id=\"" + idText + "\">" + state(order, false) + "</canceled>";
    }

    private String findFailure(String account, String idText) {
        if (!balances.containsKey(account)) return "<error id=\"" + idText + "\">account does not exist</error>";
        ModelOrder order = orders.get(Long.parseLong(idText));
        if (order == null) return "<error id=\"" + idText + "\">order does not exist</error>";
        if (!order.account.equals(account)) {
            return "<error id=\"" + idText + "\">order belongs to another account</error>";
        }
        return null;
    }

    private static String state(ModelOrder order, boolean withOpen) {
        StringBuilder xml = new StringBuilder();
        if (withOpen && order.open.signum() > 0)
            xml.append("<open shares=\"").append(signed(order, order.open)).append("\"/>");
        if (order.canceled != null) {
            xml.append("<canceled shares=\"")
                    .append(signed(order, order.canceled))
                    .append("\" time=\"T\"/>");
        }
        for (BigDecimal[] fill : order.fills) {
            xml.append("<executed shares=\"")
                    .append(signed(order, fill[0]))
                    .append("\" price=\"")
                    .append(fill[1].toPlainString())
                    .append("\" time=\"T\"/>");
        }
        return xml.toString();
    }

    private static String signed(ModelOrder order, BigDecimal shares) {
        return (order.buy ? shares : shares.negate()).toPlainString();
    }

    private static BigDecimal number(String text) {
        try {
            return text.matches("[+-]?\\d+(\\.\\d+)?") ? new BigDecimal(text) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Free cash plus cash reserved by open buys, over the given accounts. */
    public BigDecimal cash(Iterable<String> accounts) {
        BigDecimal total = BigDecimal.ZERO;
        for (String account : accounts) {
            total = total.add(balances.get(account));
            for (ModelOrder order : orders.values()) {
                if (order.account.equals(account) && order.buy) total = total.add(order.open.multiply(order.limit));
            }
        }
        return total;
    }
}
