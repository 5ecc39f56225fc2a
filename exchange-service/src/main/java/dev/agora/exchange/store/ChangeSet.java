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
 * changed ten times in a batch is written once, with its final value); executions are all new rows.
 */
public final class ChangeSet implements StateChanges {

    record PositionKey(Account account, String symbol) {}

    Set<Account> accounts = new LinkedHashSet<>();
    Set<PositionKey> positions = new LinkedHashSet<>();
    Set<Order> orders = new LinkedHashSet<>();
    List<Execution> executions = new ArrayList<>();

    @Override
    public void accountChanged(Account account) {
        accounts.add(account);
    }

    @Override
    public void positionChanged(Account account, String symbol) {
        positions.add(new PositionKey(account, symbol));
    }

    @Override
    public void orderChanged(Order order) {
        orders.add(order);
    }

    @Override
    public void executed(Execution execution) {
        executions.add(execution);
    }

    public boolean isEmpty() {
        return accounts.isEmpty() && positions.isEmpty() && orders.isEmpty() && executions.isEmpty();
    }

    /**
     * Starts afresh with new, small collections: clearing a hash set costs its capacity, not its size, so one
     * large batch would otherwise make every later clear as slow as that batch was big.
     */
    public void clear() {
        accounts = new LinkedHashSet<>();
        positions = new LinkedHashSet<>();
        orders = new LinkedHashSet<>();
        executions = new ArrayList<>();
    }
}
