package dev.agora.exchange.xml;

import dev.agora.exchange.matching.Decimals;
import dev.agora.exchange.matching.MatchingEngine;
import dev.agora.exchange.matching.Rejection;
import dev.agora.exchange.matching.Result;
import dev.agora.exchange.sequencer.Command;
import java.util.ArrayList;
import java.util.List;

/**
 * Applies all children of one request, in document order, as one command: one result per child, null for
 * an unsupported child. Each child stands on its own: a rejected child changes nothing and does not undo
 * the others. A child the connection may not send ({@link AccountPermission}, from a TLS client certificate: a
 * {@code <create>} child without an admin certificate, a transaction on an account the certificate does not name)
 * is refused before it reaches the engine.
 */
final class RequestCommand implements Command<List<Result>> {

    private static final Result NOT_PERMITTED = Result.rejected(Rejection.ACCOUNT_NOT_PERMITTED);
    private static final Result CREATE_NOT_PERMITTED = Result.rejected(Rejection.CREATE_NOT_PERMITTED);

    private final XmlRequest request;
    private final AccountPermission permission;

    RequestCommand(XmlRequest request) {
        this(request, AccountPermission.ANY);
    }

    RequestCommand(XmlRequest request, AccountPermission permission) {
        this.request = request;
        this.permission = permission;
    }

    @Override
    public List<Result> applyTo(MatchingEngine engine) {
        List<Result> results = new ArrayList<>(request.items().size());
        String accountId = request instanceof XmlRequest.Transactions transactions ? transactions.accountId() : null;
        boolean transactionsPermitted = accountId == null || permission.mayActFor(accountId);
        for (XmlRequest.Item item : request.items()) {
            results.add(
                    switch (item) {
                        case XmlRequest.NewAccount account ->
                            permission.mayCreate()
                                    ? engine.createAccount(account.id(), Decimals.parse(account.balance()))
                                    : CREATE_NOT_PERMITTED;
                        case XmlRequest.NewShares shares ->
                            permission.mayCreate()
                                    ? engine.addShares(
                                            shares.symbol(), shares.accountId(), Decimals.parse(shares.shares()))
                                    : CREATE_NOT_PERMITTED;
                        case XmlRequest.Unsupported unsupported -> null;
                        case XmlRequest.PlaceOrder order
                        when transactionsPermitted ->
                            engine.placeOrder(
                                    accountId,
                                    order.symbol(),
                                    Decimals.parse(order.amount()),
                                    Decimals.parse(order.limit()));
                        case XmlRequest.Query query
                        when transactionsPermitted -> engine.query(accountId, orderId(query.orderId()));
                        case XmlRequest.Cancel cancel
                        when transactionsPermitted -> engine.cancel(accountId, orderId(cancel.orderId()));
                        default -> NOT_PERMITTED;
                    });
        }
        return results;
    }

    /**
     * Order ids are positive 64-bit numbers; anything else (not digits, or beyond 2^63 - 1) names no order, and the
     * engine answers "does not exist". Never throws: an exception here would fail the whole batch.
     */
    static long orderId(String text) {
        if (text == null || text.isEmpty() || text.length() > 19) return -1;
        long id = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') return -1;
            int digit = c - '0';
            if (id > (Long.MAX_VALUE - digit) / 10) return -1;
            id = id * 10 + digit;
        }
        return id;
    }
}
