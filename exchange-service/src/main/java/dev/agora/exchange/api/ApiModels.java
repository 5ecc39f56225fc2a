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

    private ApiModels() {}

    record CreateAccount(
            @NotNull @Pattern(regexp = ACCOUNT_ID) String id,
            @NotNull @PositiveOrZero @Digits(integer = 30, fraction = 12) BigDecimal balance) {}

    record AccountCreated(String id, BigDecimal balance) {}

    record AccountView(String id, BigDecimal balance, Map<String, BigDecimal> positions) {}

    record AddShares(
            @NotNull @Pattern(regexp = ACCOUNT_ID) String accountId,
            @NotNull @Positive @Digits(integer = 30, fraction = 12) BigDecimal shares) {}

    record SharesAdded(String symbol, String accountId, BigDecimal shares) {}

    record PlaceOrder(
            @NotNull @Pattern(regexp = SYMBOL) String symbol,
            @NotNull @Digits(integer = 30, fraction = 12) BigDecimal amount,
            @NotNull @Positive @Digits(integer = 30, fraction = 12) BigDecimal limit) {}

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
