package dev.agora.exchange.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.exchange.support.ExchangeServiceTest;
import dev.agora.exchange.support.Ids;
import dev.agora.exchange.support.Rest;
import java.sql.SQLException;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Order placement with an {@code Idempotency-Key} (what the frontend sends, so it may repeat a placement whose answer
 * it lost): one key places one order, however often it is sent; the same key with another order is refused and
 * changes nothing; a malformed key is bad input. Checked in the answers and in PostgreSQL.
 */
class IdempotentOrdersTest extends ExchangeServiceTest {

    @Autowired
    DataSource database;

    private String account(String balance) {
        String id = Ids.account();
        assertThat(rest(adminToken())
                        .post(
                                "/api/exchange/accounts",
                                "{\"id\":\"" + id + "\",\"balance\":" + balance + ",\"owner\":\"trader-" + id + "\"}")
                        .status())
                .isEqualTo(201);
        return id;
    }

    private Rest.Reply place(String account, String body, String key) {
        return rest(ISSUER.token("trader-" + account, "trader"))
                .post("/api/exchange/accounts/" + account + "/orders", body, Map.of("Idempotency-Key", key));
    }

    @Test
    void theSameKeyPlacesOneOrderAndAnswersWithItAgain() throws SQLException {
        String account = account("1000");
        String symbol = Ids.symbol();
        String body = "{\"symbol\":\"" + symbol + "\",\"amount\":3,\"limit\":10}";
        String key = UUID.randomUUID().toString();

        Rest.Reply first = place(account, body, key);
        Rest.Reply again = place(account, body, key);
        Rest.Reply otherKey = place(account, body, UUID.randomUUID().toString());

        assertThat(first.status()).isEqualTo(201);
        assertThat(again.status()).isEqualTo(201);
        assertThat(again.body().get("id").asLong())
                .isEqualTo(first.body().get("id").asLong());
        assertThat(otherKey.body().get("id").asLong())
                .as("another key is another order")
                .isNotEqualTo(first.body().get("id").asLong());
        assertThat(ordersOf(account)).isEqualTo(2);
        assertThat(balanceOf(account)).as("two buys of 3 x 10 reserved").isEqualByComparingTo("940");
    }

    @Test
    void theSameKeyWithAnotherOrderIsRefusedAndChangesNothing() throws SQLException {
        String account = account("1000");
        String symbol = Ids.symbol();
        String key = UUID.randomUUID().toString();
        assertThat(place(account, "{\"symbol\":\"" + symbol + "\",\"amount\":3,\"limit\":10}", key)
                        .status())
                .isEqualTo(201);

        Rest.Reply other = place(account, "{\"symbol\":\"" + symbol + "\",\"amount\":4,\"limit\":10}", key);

        assertThat(other.status()).isEqualTo(422);
        assertThat(other.isProblem()).isTrue();
        assertThat(other.body().get("type").asString()).isEqualTo("https://agora.dev/problems/idempotency-key-reused");
        assertThat(ordersOf(account)).isEqualTo(1);
        assertThat(balanceOf(account)).isEqualByComparingTo("970");
    }

    @Test
    void aKeyBelongsToItsAccount() throws SQLException {
        String first = account("1000");
        String second = account("1000");
        String symbol = Ids.symbol();
        String key = UUID.randomUUID().toString();
        String body = "{\"symbol\":\"" + symbol + "\",\"amount\":1,\"limit\":10}";

        assertThat(place(first, body, key).status()).isEqualTo(201);
        assertThat(place(second, body, key).status()).isEqualTo(201);

        assertThat(ordersOf(first)).isEqualTo(1);
        assertThat(ordersOf(second)).isEqualTo(1);
    }

    @Test
    void aMalformedKeyIsBadInput() throws SQLException {
        String account = account("1000");

        Rest.Reply reply = place(account, "{\"symbol\":\"ABC\",\"amount\":1,\"limit\":10}", "not a key!");

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.isProblem()).isTrue();
        assertThat(ordersOf(account)).isZero();
    }

    private long ordersOf(String account) throws SQLException {
        try (var connection = database.getConnection();
                var query = connection.prepareStatement("SELECT count(*) FROM exchange_order WHERE account_id = ?")) {
            query.setString(1, account);
            try (var rows = query.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private java.math.BigDecimal balanceOf(String account) throws SQLException {
        try (var connection = database.getConnection();
                var query = connection.prepareStatement("SELECT balance FROM account WHERE id = ?")) {
            query.setString(1, account);
            try (var rows = query.executeQuery()) {
                rows.next();
                return rows.getBigDecimal(1);
            }
        }
    }
}
