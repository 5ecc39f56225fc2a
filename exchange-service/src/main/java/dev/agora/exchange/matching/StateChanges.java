package dev.agora.exchange.matching;

/**
 * Receives every change the engine makes, so the caller can make it durable. The engine calls it on its
 * own thread, after the change is applied; the objects passed are live and may change again later. New
 * rows are told apart from changed ones, so that they can be written as plain inserts and updates.
 */
public interface StateChanges {

    StateChanges NONE = new StateChanges() {};

    /** A new account; later changes to it in the same batch come as {@link #accountChanged}. */
    default void accountOpened(Account account) {
        accountChanged(account);
    }

    default void accountChanged(Account account) {}

    /** The account's first shares in this symbol. */
    default void positionOpened(Account account, String symbol) {
        positionChanged(account, symbol);
    }

    default void positionChanged(Account account, String symbol) {}

    /** A new order, already matched as far as it goes. */
    default void orderPlaced(Order order) {
        orderChanged(order);
    }

    default void orderChanged(Order order) {}

    default void executed(Execution execution) {}
}
