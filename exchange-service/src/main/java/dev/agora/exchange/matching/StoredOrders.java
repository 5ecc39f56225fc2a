package dev.agora.exchange.matching;

import java.util.Optional;

/**
 * Orders as they were committed, read from durable storage: how the engine's edges answer for orders the engine no
 * longer holds (closed ones) and for executions it did not keep. Implementations may block; callers call them off
 * the engine's thread, after the commit of the batch that asked, so whatever that batch saw is there.
 */
public interface StoredOrders {

    /** Finds nothing: for tools that drive an engine without storage. */
    StoredOrders NONE = (orderId, executionsUpTo, maxExecutions) -> Optional.empty();

    /**
     * The order with its executions of ids up to {@code executionsUpTo}, in execution order, at most
     * {@code maxExecutions + 1} of them (one more than asked says there are too many); empty when there is no such
     * order.
     */
    Optional<OrderSnapshot> read(long orderId, long executionsUpTo, int maxExecutions);
}
