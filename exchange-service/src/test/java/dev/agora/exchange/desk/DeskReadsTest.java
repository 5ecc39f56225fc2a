package dev.agora.exchange.desk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.exchange.support.ExchangeServiceTest;
import dev.agora.exchange.support.Ids;
import dev.agora.exchange.support.Rest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The desk's reads over real HTTP against the exchange with its engine and PostgreSQL: {@code /api/exchange/me} shows
 * a trader their own accounts and open orders and nothing of anyone else's, and a symbol's book adds up the open
 * orders the traders placed into price levels. Who may not read them is refused, and a symbol the exchange does not
 * know is a problem, not an empty book.
 */
class DeskReadsTest extends ExchangeServiceTest {

    private Rest admin() {
        return rest(adminToken());
    }

    private Rest trader(String user) {
        return rest(ISSUER.token(user, "trader"));
    }

    private static String person(String name) {
        return "desk-" + name + "-" + Ids.account();
    }

    private String account(String owner, String balance) {
        String id = Ids.account();
        Rest.Reply created = admin().post(
                        "/api/exchange/accounts",
                        "{\"id\":\"" + id + "\",\"balance\":" + balance + ",\"owner\":\"" + owner + "\"}");
        assertThat(created.status()).as(created.text()).isEqualTo(201);
        return id;
    }

    private void grant(String symbol, String accountId, String shares) {
        Rest.Reply granted = admin().post(
                        "/api/exchange/symbols/" + symbol + "/positions",
                        "{\"accountId\":\"" + accountId + "\",\"shares\":\"" + shares + "\"}");
        assertThat(granted.status()).as(granted.text()).isEqualTo(201);
    }

    private long place(String owner, String accountId, String symbol, String amount, String limit) {
        Rest.Reply placed = trader(owner)
                .post(
                        "/api/exchange/accounts/" + accountId + "/orders",
                        "{\"symbol\":\"" + symbol + "\",\"amount\":\"" + amount + "\",\"limit\":\"" + limit + "\"}");
        assertThat(placed.status()).as(placed.text()).isEqualTo(201);
        return placed.body().get("id").asLong();
    }

    @Test
    void aTraderSeesTheirOwnAccountsAndOpenOrdersAndNothingOfAnotherTraders() {
        String symbol = Ids.symbol();
        String ann = person("ann");
        String bob = person("bob");
        String annCash = account(ann, "1000");
        String annShares = account(ann, "5");
        String bobs = account(bob, "300");
        grant(symbol, annShares, "10");
        long annBuy = place(ann, annCash, symbol, "2", "99");
        long annSell = place(ann, annShares, symbol, "-4", "120");
        long bobBuy = place(bob, bobs, symbol, "1", "98.5");

        JsonNode mine = trader(ann).get("/api/exchange/me").body();
        assertThat(mine.get("user").asString()).isEqualTo(ann);
        assertThat(ids(mine.get("accounts"), "id")).containsExactly(annCash, annShares);
        JsonNode cash = mine.get("accounts").get(0);
        assertThat(cash.get("balance").decimalValue())
                .as("free cash: 1000 less the 2 x 99 the open buy holds")
                .isEqualByComparingTo("802");
        JsonNode shares = mine.get("accounts").get(1);
        assertThat(shares.get("positions").get(symbol).decimalValue())
                .as("10 granted, 4 held by the open sell")
                .isEqualByComparingTo("6");
        assertThat(ids(mine.get("openOrders"), "id"))
                .as("newest first, only ann's")
                .containsExactly(Long.toString(annSell), Long.toString(annBuy));
        JsonNode sell = mine.get("openOrders").get(0);
        assertThat(sell.get("accountId").asString()).isEqualTo(annShares);
        assertThat(sell.get("amount").decimalValue()).isEqualByComparingTo("-4");
        assertThat(sell.get("open").decimalValue()).isEqualByComparingTo("4");
        assertThat(sell.get("limit").decimalValue()).isEqualByComparingTo("120");

        Rest.Reply bobsView = trader(bob).get("/api/exchange/me");
        assertThat(bobsView.status()).isEqualTo(200);
        assertThat(ids(bobsView.body().get("accounts"), "id")).containsExactly(bobs);
        assertThat(ids(bobsView.body().get("openOrders"), "id")).containsExactly(Long.toString(bobBuy));
        assertThat(bobsView.text()).doesNotContain(annCash, annShares, ann);

        JsonNode stranger = trader(person("carol")).get("/api/exchange/me").body();
        assertThat(stranger.get("accounts").isEmpty()).isTrue();
        assertThat(stranger.get("openOrders").isEmpty()).isTrue();
    }

    @Test
    void whoMayNotReadTheDeskIsRefusedWithAProblemAndLearnsNothing() {
        String symbol = Ids.symbol();
        String ann = person("ann");
        String annCash = account(ann, "1000");
        place(ann, annCash, symbol, "1", "10");

        for (String path : List.of("/api/exchange/me", "/api/exchange/symbols/" + symbol + "/book")) {
            Rest.Reply customer = rest(ISSUER.token(ann, "customer")).get(path);
            assertThat(customer.status()).as(path + " as a customer").isEqualTo(403);
            assertThat(customer.isProblem()).isTrue();
            assertThat(customer.text()).doesNotContain(annCash);

            Rest.Reply nobody = rest(null).get(path);
            assertThat(nobody.status()).as(path + " without a token").isEqualTo(401);
            assertThat(nobody.isProblem()).isTrue();
        }
        Rest.Reply another = trader(person("bob")).get("/api/exchange/accounts/" + annCash);
        assertThat(another.status()).as("another trader's account").isEqualTo(403);
        assertThat(another.isProblem()).isTrue();
        assertThat(another.text()).doesNotContain("balance", "positions");
    }

    @Test
    void anUnknownOrMalformedSymbolIsAProblemAndAKnownOneWithNothingOpenHasAnEmptyBook() {
        Rest reader = trader(person("reader"));
        String unknown = Ids.symbol();
        Rest.Reply missing = reader.get("/api/exchange/symbols/" + unknown + "/book");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.isProblem()).isTrue();
        assertThat(missing.body().get("type").asString())
                .isEqualTo("https://agora.dev/problems/exchange/unknown-symbol");
        assertThat(missing.body().get("detail").asString()).contains(unknown);

        for (String bad : List.of("BAD-SYMBOL", "x".repeat(33), "%C3%A9t%C3%A9")) {
            Rest.Reply malformed = reader.get("/api/exchange/symbols/" + bad + "/book");
            assertThat(malformed.status()).as(bad).isEqualTo(400);
            assertThat(malformed.isProblem()).as(bad).isTrue();
        }
        String known = Ids.symbol();
        for (String depth : List.of("0", "201", "many")) {
            Rest.Reply badDepth = reader.get("/api/exchange/symbols/" + known + "/book?depth=" + depth);
            assertThat(badDepth.status()).as("depth " + depth).isEqualTo(400);
            assertThat(badDepth.isProblem()).isTrue();
        }

        grant(known, account(person("holder"), "0"), "3");
        JsonNode book = reader.get("/api/exchange/symbols/" + known + "/book").body();
        assertThat(book.get("symbol").asString()).isEqualTo(known);
        assertThat(book.get("bids").isEmpty()).isTrue();
        assertThat(book.get("asks").isEmpty()).isTrue();
    }

    @Test
    void theBookAddsUpOpenQuantitiesPerPriceBestFirstAfterRealOrdersTradesAndCancels() {
        String symbol = Ids.symbol();
        String seller = person("seller");
        String buyer = person("buyer");
        String sells = account(seller, "0");
        String buys = account(buyer, "10000");
        grant(symbol, sells, "20");

        long firstAsk = place(seller, sells, symbol, "-3", "101");
        place(seller, sells, symbol, "-2.5", "101.00");
        place(seller, sells, symbol, "-1", "102");
        place(buyer, buys, symbol, "2", "99");
        place(buyer, buys, symbol, "1.25", "99");
        long lowBid = place(buyer, buys, symbol, "4", "98");
        // Crosses the best ask: 1 share of the first order at 101 trades, 2 of it stay open.
        place(buyer, buys, symbol, "1", "101");

        JsonNode book = trader(person("watcher"))
                .get("/api/exchange/symbols/" + symbol + "/book")
                .body();
        assertThat(levels(book.get("bids"))).containsExactly("99 3.25 2", "98 4 1");
        assertThat(levels(book.get("asks"))).containsExactly("101 4.5 2", "102 1 1");

        assertThat(trader(buyer)
                        .delete("/api/exchange/accounts/" + buys + "/orders/" + lowBid)
                        .status())
                .isEqualTo(200);
        assertThat(trader(seller)
                        .delete("/api/exchange/accounts/" + sells + "/orders/" + firstAsk)
                        .status())
                .isEqualTo(200);
        JsonNode after = trader(buyer)
                .get("/api/exchange/symbols/" + symbol + "/book?depth=1")
                .body();
        assertThat(levels(after.get("bids"))).containsExactly("99 3.25 2");
        assertThat(levels(after.get("asks"))).as("depth 1: the best level only").containsExactly("101 2.5 1");
    }

    /** Each level as "price shares orders", decimals compared by value (101.00 and 101 are one level). */
    private static List<String> levels(JsonNode side) {
        List<String> levels = new ArrayList<>();
        for (JsonNode level : side) {
            levels.add(level.get("price").decimalValue().stripTrailingZeros().toPlainString() + " "
                    + level.get("shares").decimalValue().stripTrailingZeros().toPlainString() + " "
                    + level.get("orders").asInt());
        }
        return levels;
    }

    private static List<String> ids(JsonNode array, String field) {
        List<String> ids = new ArrayList<>();
        for (JsonNode element : array) ids.add(element.get(field).asString());
        return ids;
    }
}
