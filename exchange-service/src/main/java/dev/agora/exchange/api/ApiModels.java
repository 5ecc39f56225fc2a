package dev.agora.exchange.api;

import dev.agora.exchange.matching.OrderSnapshot;
import jakarta.validation.constraints.Digits;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/** Request and response bodies of the exchange's JSON API. Quantities are exact decimals. */
final class ApiModels {

    static final String ACCOUNT_ID = "[0-9]{1,100}";
    static final String SYMBOL = "[A-Za-z0-9]{1,32}";
    /** A user name, as the authorization server puts it in a token's subject. */
    static final String OWNER = "[A-Za-z0-9._@-]{1,100}";
    /** An {@code Idempotency-Key} header: a UUID fits, and so does any other short token. */
    static final String IDEMPOTENCY_KEY = "[A-Za-z0-9._:-]{1,64}";

    private ApiModels() {}

    /** An admin's request: the account's id, opening balance, and the user it belongs to. */
    record CreateAccount(
            @NotNull @Pattern(regexp = ACCOUNT_ID) String id,
            @NotNull @PositiveOrZero @Digits(integer = 30, fraction = 12) BigDecimal balance,
            @NotNull @Pattern(regexp = OWNER) String owner) {}

    record AccountCreated(String id, BigDecimal balance, String owner) {}

    /** {@code owner} is null for an account created over the XML protocol. */
    record AccountView(String id, String owner, BigDecimal balance, Map<String, BigDecimal> positions) {}

    record AddShares(
            @NotNull @Pattern(regexp = ACCOUNT_ID) String accountId,
            @NotNull @Positive @Digits(integer = 30, fraction = 12) BigDecimal shares) {}

    record SharesAdded(String symbol, String accountId, BigDecimal shares) {}

    record PlaceOrder(
            @NotNull @Pattern(regexp = SYMBOL) String symbol,
            @NotNull @Digits(integer = 30, fraction = 12) BigDecimal amount,
            @NotNull @Positive @Digits(integer = 30, fraction = 12) BigDecimal limit) {

        /** Whether {@code order} is the order this request asks for (scale aside: 5 and 5.0 are one amount). */
        boolean describes(OrderView order) {
            return symbol.equals(order.symbol())
                    && amount.compareTo(order.amount()) == 0
                    && limit.compareTo(order.limit()) == 0;
        }
    }

    record OrderView(
            long id,
            String accountId,
            String symbol,
            BigDecimal amount,
            BigDecimal limit,
            BigDecimal open,
            Canceled canceled,
            List<Executed> executions) {

        static OrderView of(OrderSnapshot order) {
            return new OrderView(
                    order.id(),
                    order.accountId(),
                    order.symbol(),
                    order.amount(),
                    order.limit(),
                    order.open(),
                    order.canceled() == null
                            ? null
                            : new Canceled(
                                    order.canceled().shares(), order.canceled().time()),
                    order.executions().stream()
                            .map(fill -> new Executed(fill.shares(), fill.price(), fill.time()))
                            .toList());
        }
    }

    record Canceled(BigDecimal shares, long time) {}

    record Executed(BigDecimal shares, BigDecimal price, long time) {}
}
