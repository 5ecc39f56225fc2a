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

    final Set<Account> accounts = new LinkedHashSet<>();
    final Set<PositionKey> positions = new LinkedHashSet<>();
    final Set<Order> orders = new LinkedHashSet<>();
    final List<Execution> executions = new ArrayList<>();

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

    public void clear() {
        accounts.clear();
        positions.clear();
        orders.clear();
        executions.clear();
    }
}
