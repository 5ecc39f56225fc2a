package dev.agora.exchange.xml;

import dev.agora.exchange.matching.Decimals;
import dev.agora.exchange.matching.MatchingEngine;
import dev.agora.exchange.matching.Result;
import dev.agora.exchange.sequencer.Command;
import java.util.ArrayList;
import java.util.List;

/**
 * Applies all children of one request, in document order, as one command: one result per child, null for
 * an unsupported child. Each child stands on its own: a rejected child changes nothing and does not undo
 * the others.
 */
final class RequestCommand implements Command<List<Result>> {

    private final XmlRequest request;

    RequestCommand(XmlRequest request) {
        this.request = request;
    }

    @Override
    public List<Result> applyTo(MatchingEngine engine) {
        List<Result> results = new ArrayList<>(request.items().size());
        String accountId = request instanceof XmlRequest.Transactions transactions ? transactions.accountId() : null;
        for (XmlRequest.Item item : request.items()) {
            results.add(
                    switch (item) {
                        case XmlRequest.NewAccount account ->
                            engine.createAccount(account.id(), Decimals.parse(account.balance()));
                        case XmlRequest.NewShares shares ->
                            engine.addShares(shares.symbol(), shares.accountId(), Decimals.parse(shares.shares()));
                        case XmlRequest.PlaceOrder order ->
                            engine.placeOrder(
                                    accountId,
                                    order.symbol(),
                                    Decimals.parse(order.amount()),
                                    Decimals.parse(order.limit()));
                        case XmlRequest.Query query -> engine.query(accountId, orderId(query.orderId()));
                        case XmlRequest.Cancel cancel -> engine.cancel(accountId, orderId(cancel.orderId()));
                        case XmlRequest.Unsupported unsupported -> null;
                    });
        }
        return results;
    }

    /** Order ids are positive longs; anything else names no order (the engine answers "does not exist"). */
    private static long orderId(String text) {
        if (text == null || text.isEmpty() || text.length() > 19) return -1;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') return -1;
        }
        return Long.parseLong(text);
    }
}
