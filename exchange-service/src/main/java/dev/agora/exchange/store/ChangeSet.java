package dev.agora.exchange.store;

import dev.agora.exchange.matching.Account;
import dev.agora.exchange.matching.Execution;
import dev.agora.exchange.matching.Order;
import dev.agora.exchange.matching.StateChanges;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The rows a batch of commands touched. Accounts, positions and orders are collected once each (a row
 * changed ten times in a batch is written once, with its final value), new rows apart from rows that were
 * already written: a new row is inserted and a changed one updated, which costs PostgreSQL less than an
 * upsert (no speculative insertion for a new row, no row lock before updating an old one). A row new in this
 * batch stays new however often it changes after. Executions are all new rows.
 */
public final class ChangeSet implements StateChanges {

    record PositionKey(Account account, String symbol) {}

    Set<Account> openedAccounts = new LinkedHashSet<>();
    Set<Account> accounts = new LinkedHashSet<>();
    Set<PositionKey> openedPositions = new LinkedHashSet<>();
    Set<PositionKey> positions = new LinkedHashSet<>();
    Set<Order> placedOrders = new LinkedHashSet<>();
    Set<Order> orders = new LinkedHashSet<>();
    List<Execution> executions = new ArrayList<>();

    @Override
    public void accountOpened(Account account) {
        openedAccounts.add(account);
    }

    @Override
    public void accountChanged(Account account) {
        if (!openedAccounts.contains(account)) accounts.add(account);
    }

    @Override
    public void positionOpened(Account account, String symbol) {
        openedPositions.add(new PositionKey(account, symbol));
    }

    @Override
    public void positionChanged(Account account, String symbol) {
        PositionKey position = new PositionKey(account, symbol);
        if (!openedPositions.contains(position)) positions.add(position);
    }

    @Override
    public void orderPlaced(Order order) {
        placedOrders.add(order);
    }

    @Override
    public void orderChanged(Order order) {
        if (!placedOrders.contains(order)) orders.add(order);
    }

    @Override
    public void executed(Execution execution) {
        executions.add(execution);
    }

    public boolean isEmpty() {
        return openedAccounts.isEmpty()
                && accounts.isEmpty()
                && openedPositions.isEmpty()
                && positions.isEmpty()
                && placedOrders.isEmpty()
                && orders.isEmpty()
                && executions.isEmpty();
    }

    /**
     * Starts afresh with new, small collections: clearing a hash set costs its capacity, not its size, so one
     * large batch would otherwise make every later clear as slow as that batch was big.
     */
    public void clear() {
        openedAccounts = new LinkedHashSet<>();
        accounts = new LinkedHashSet<>();
        openedPositions = new LinkedHashSet<>();
        positions = new LinkedHashSet<>();
        placedOrders = new LinkedHashSet<>();
        orders = new LinkedHashSet<>();
        executions = new ArrayList<>();
    }
}
