package dev.agora.exchange.matching;

/**
 * Receives every change the engine makes, so the caller can make it durable. The engine calls it on its
 * own thread, after the change is applied; the objects passed are live and may change again later.
 */
public interface StateChanges {

    StateChanges NONE = new StateChanges() {};

    default void accountChanged(Account account) {}

    default void positionChanged(Account account, String symbol) {}

    default void orderChanged(Order order) {}

    default void executed(Execution execution) {}
}
