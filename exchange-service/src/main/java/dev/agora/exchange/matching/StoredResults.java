package dev.agora.exchange.matching;

import java.util.List;
import java.util.Optional;

/**
 * Turns the engine's answers that name stored data ({@link Result.StoredOrder}, snapshots whose executions are
 * stored) into the answers a client gets, by reading the store. The rules are the engine's own: an order that is not
 * there does not exist, another account's order is foreign, a closed order has nothing open to cancel.
 */
public final class StoredResults {

    private final StoredOrders store;
    private final int maxExecutions;

    /**
     * @param maxExecutions most executions one answer may carry; an order with more is answered with
     *     {@link Rejection#TOO_MANY_EXECUTIONS}, so no query can make the server read an unbounded history
     */
    public StoredResults(StoredOrders store, int maxExecutions) {
        this.store = store;
        this.maxExecutions = maxExecutions;
    }

    /** Whether {@link #complete} would read the store for this result. */
    public static boolean needsStore(Result result) {
        return switch (result) {
            case Result.StoredOrder stored -> true;
            case Result.OrderStatus status -> status.order().executionsStored();
            case Result.OrderCanceled canceled -> canceled.order().executionsStored();
            case null, default -> false;
        };
    }

    public static boolean needStore(List<Result> results) {
        for (Result result : results) if (needsStore(result)) return true;
        return false;
    }

    /** The final answer; may block on the store. */
    public Result complete(Result result) {
        return switch (result) {
            case Result.StoredOrder stored -> closedOrder(stored);
            case Result.OrderStatus status
            when status.order().executionsStored() ->
                withStoredExecutions(status.order())
                        .<Result>map(Result.OrderStatus::new)
                        .orElse(Result.rejected(Rejection.TOO_MANY_EXECUTIONS));
            case Result.OrderCanceled canceled
            when canceled.order().executionsStored() ->
                withStoredExecutions(canceled.order())
                        .<Result>map(Result.OrderCanceled::new)
                        .orElse(Result.rejected(Rejection.TOO_MANY_EXECUTIONS));
            case null, default -> result;
        };
    }

    /** Completes every result of a list, in place of the originals (a new list). */
    public List<Result> completeAll(List<Result> results) {
        if (!needStore(results)) return results;
        return results.stream().map(this::complete).toList();
    }

    private Result closedOrder(Result.StoredOrder stored) {
        Optional<OrderSnapshot> found = store.read(stored.orderId(), stored.executionsUpTo(), maxExecutions);
        if (found.isEmpty()) return Result.rejected(Rejection.UNKNOWN_ORDER);
        OrderSnapshot order = found.get();
        if (!order.accountId().equals(stored.accountId())) return Result.rejected(Rejection.FOREIGN_ORDER);
        // The engine holds every open order, so what it no longer holds has nothing open.
        if (stored.cancel()) return Result.rejected(Rejection.NOTHING_OPEN);
        if (order.executions().size() > maxExecutions) return Result.rejected(Rejection.TOO_MANY_EXECUTIONS);
        return new Result.OrderStatus(order);
    }

    /** The engine's snapshot with the executions read from the store; empty when there are too many. */
    private Optional<OrderSnapshot> withStoredExecutions(OrderSnapshot order) {
        List<OrderSnapshot.SignedFill> executions = store.read(order.id(), order.executionsUpTo(), maxExecutions)
                .map(OrderSnapshot::executions)
                .orElse(List.of());
        if (executions.size() > maxExecutions) return Optional.empty();
        return Optional.of(new OrderSnapshot(
                order.id(),
                order.accountId(),
                order.symbol(),
                order.amount(),
                order.limit(),
                order.open(),
                order.canceled(),
                executions,
                0));
    }
}
