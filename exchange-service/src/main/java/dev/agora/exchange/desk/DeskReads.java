package dev.agora.exchange.desk;

import dev.agora.exchange.matching.Account;
import dev.agora.exchange.matching.Fill;
import dev.agora.exchange.matching.MatchingEngine;
import dev.agora.exchange.matching.Order;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads of the engine for a desk, run as sequencer commands (alone on the engine's thread, so each sees one
 * consistent state). They walk the open orders: time in proportion to open interest, like the engine's start-up; a
 * desk asks a few times a second, not per trade.
 */
final class DeskReads {

    private DeskReads() {}

    static DeskViews.Mine mine(MatchingEngine engine, String user) {
        List<DeskViews.AccountView> accounts = new ArrayList<>();
        for (Account account : engine.accounts()) {
            if (account.isOwnedBy(user)) {
                accounts.add(
                        new DeskViews.AccountView(account.id(), account.balance(), new TreeMap<>(account.positions())));
            }
        }
        accounts.sort(Comparator.comparing(DeskViews.AccountView::id));
        List<DeskViews.OpenOrder> open = new ArrayList<>();
        for (Order order : engine.openOrders()) {
            if (engine.account(order.accountId())
                    .filter(account -> account.isOwnedBy(user))
                    .isPresent()) {
                open.add(view(order));
            }
        }
        open.sort(Comparator.comparingLong(DeskViews.OpenOrder::id).reversed());
        return new DeskViews.Mine(user, accounts, open);
    }

    /**
     * A symbol's book; empty when the exchange knows no such symbol: no order for it is open and no account holds
     * shares of it (a symbol comes to be with its first shares or order, XML {@code <symbol>} or a buy).
     */
    static Optional<DeskViews.Book> book(MatchingEngine engine, String symbol, int depth) {
        TreeMap<BigDecimal, BigDecimal[]> bids = new TreeMap<>(Comparator.reverseOrder());
        TreeMap<BigDecimal, BigDecimal[]> asks = new TreeMap<>();
        boolean known = false;
        for (Order order : engine.openOrders()) {
            if (!order.symbol().equals(symbol) || !order.isOpen()) continue;
            known = true;
            BigDecimal[] level = (order.isBuy() ? bids : asks)
                    .computeIfAbsent(order.limit().stripTrailingZeros(), price ->
                            new BigDecimal[] {BigDecimal.ZERO, BigDecimal.ZERO});
            level[0] = level[0].add(order.open());
            level[1] = level[1].add(BigDecimal.ONE);
        }
        if (!known && !held(engine, symbol)) return Optional.empty();
        return Optional.of(new DeskViews.Book(symbol, levels(bids, depth), levels(asks, depth)));
    }

    private static boolean held(MatchingEngine engine, String symbol) {
        for (Account account : engine.accounts()) {
            if (account.shares(symbol) != null) return true;
        }
        return false;
    }

    private static List<DeskViews.Level> levels(TreeMap<BigDecimal, BigDecimal[]> side, int depth) {
        List<DeskViews.Level> levels = new ArrayList<>();
        for (Map.Entry<BigDecimal, BigDecimal[]> level : side.entrySet()) {
            if (levels.size() == depth) break;
            levels.add(new DeskViews.Level(
                    level.getKey().scale() < 0 ? level.getKey().setScale(0) : level.getKey(),
                    level.getValue()[0],
                    level.getValue()[1].intValue()));
        }
        return levels;
    }

    private static DeskViews.OpenOrder view(Order order) {
        List<DeskViews.Executed> executions = new ArrayList<>();
        for (Fill fill : order.fills()) {
            executions.add(new DeskViews.Executed(
                    order.isBuy() ? fill.shares() : fill.shares().negate(), fill.price(), fill.time()));
        }
        return new DeskViews.OpenOrder(
                order.id(),
                order.accountId(),
                order.symbol(),
                order.amount(),
                order.limit(),
                order.open(),
                executions,
                order.fillsStored());
    }
}
