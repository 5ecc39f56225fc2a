package dev.agora.exchange.xml;

import java.util.List;

/**
 * A parsed request, attribute values exactly as the client wrote them (validated later, so each child gets
 * its own error and replies can echo what was sent). Missing attributes are null.
 */
sealed interface XmlRequest {

    record Create(List<Item> items) implements XmlRequest {}

    record Transactions(String accountId, List<Item> items) implements XmlRequest {}

    sealed interface Item {}

    record NewAccount(String id, String balance) implements Item {}

    record NewShares(String symbol, String accountId, String shares) implements Item {}

    record PlaceOrder(String symbol, String amount, String limit) implements Item {}

    record Query(String orderId) implements Item {}

    record Cancel(String orderId) implements Item {}

    /** A child the protocol does not know; answered with an error in its place. */
    record Unsupported(String element) implements Item {}

    List<Item> items();
}
