package dev.agora.exchange.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.exchange.support.ExchangeServiceTest;
import dev.agora.exchange.support.Ids;
import dev.agora.exchange.support.Rest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The JSON API under /api/exchange: the same engine and rules as the XML protocol, problem+json errors. An admin
 * opens accounts, naming their owners, and grants shares; each owner trades on their own account.
 */
class ExchangeApiTest extends ExchangeServiceTest {

    private record Reply(int status, String contentType, JsonNode body) {}

    private Rest admin() {
        return rest(adminToken());
    }

    /** The owner of an account this test opened: each account has its own. */
    private static String ownerOf(String accountId) {
        return "trader-" + accountId;
    }

    /** The owner of {@code accountId}, a trader, calling. */
    private Rest owner(String accountId) {
        return rest(ISSUER.token(ownerOf(accountId), "trader"));
    }

    private static Reply reply(Rest.Reply reply) {
        return new Reply(reply.status(), reply.contentType(), reply.body());
    }

    private String account(String balance) {
        String id = Ids.account();
        assertThat(admin().post(
                                "/api/exchange/accounts",
                                "{\"id\":\"" + id + "\",\"balance\":" + balance + ",\"owner\":\"" + ownerOf(id) + "\"}")
                        .status())
                .isEqualTo(201);
        return id;
    }

    @Test
    void tradesThroughJson() {
        String symbol = Ids.symbol();
        String buyer = account("1000");
        String seller = account("0");
        Reply shares = reply(admin().post(
                        "/api/exchange/symbols/" + symbol + "/positions",
                        "{\"accountId\":\"" + seller + "\",\"shares\":\"10\"}"));
        assertThat(shares.status()).isEqualTo(201);
        assertThat(shares.body().get("shares").decimalValue()).isEqualByComparingTo("10");

        Reply sell = reply(owner(seller)
                .post(
                        "/api/exchange/accounts/" + seller + "/orders",
                        "{\"symbol\":\"" + symbol + "\",\"amount\":-10,\"limit\":80}"));
        assertThat(sell.status()).isEqualTo(201);
        assertThat(sell.body().get("open").decimalValue()).isEqualByComparingTo("-10");

        Reply buy = reply(owner(buyer)
                .post(
                        "/api/exchange/accounts/" + buyer + "/orders",
                        "{\"symbol\":\"" + symbol + "\",\"amount\":4,\"limit\":100}"));
        assertThat(buy.status()).isEqualTo(201);
        assertThat(buy.body().get("open").isNull()).isTrue();
        assertThat(buy.body().get("executions").get(0).get("price").decimalValue())
                .isEqualByComparingTo("80");

        Reply buyerView = reply(owner(buyer).get("/api/exchange/accounts/" + buyer));
        assertThat(buyerView.body().get("owner").asString()).isEqualTo(ownerOf(buyer));
        assertThat(buyerView.body().get("balance").decimalValue()).isEqualByComparingTo("680");
        assertThat(buyerView.body().get("positions").get(symbol).decimalValue()).isEqualByComparingTo("4");

        long sellId = sell.body().get("id").asLong();
        Reply canceled = reply(owner(seller).delete("/api/exchange/accounts/" + seller + "/orders/" + sellId));
        assertThat(canceled.status()).isEqualTo(200);
        assertThat(canceled.body().get("canceled").get("shares").decimalValue()).isEqualByComparingTo("-6");
        assertThat(owner(seller)
                        .get("/api/exchange/accounts/" + seller + "/orders/" + sellId)
                        .body()
                        .get("executions")
                        .size())
                .isEqualTo(1);
    }

    @Test
    void decimalsAreWrittenPlainAndExact() {
        String id = Ids.account();
        Rest.Reply created = admin().post(
                        "/api/exchange/accounts",
                        "{\"id\":\"" + id + "\",\"balance\":\"0.0000001\",\"owner\":\"" + ownerOf(id) + "\"}");
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.text()).contains("\"balance\":0.0000001");
        assertThat(created.text()).contains("\"owner\":\"" + ownerOf(id) + "\"");
    }

    @Test
    void groupCommitIsObservable() {
        account("1");
        // Metrics are for authenticated callers (the edge does not publish them at all).
        Rest.Reply metrics = admin().get("/actuator/prometheus");
        assertThat(metrics.text())
                .contains("agora_exchange_batch_commands_count")
                .contains("agora_exchange_batch_commit_seconds_bucket")
                .contains("agora_exchange_commands_total")
                .contains("agora_exchange_queue_depth");
        // Health stays open to probes.
        Reply health = reply(rest(null).get("/actuator/health"));
        JsonNode exchange = health.body().get("components").get("exchange");
        assertThat(exchange.get("status").asString()).isEqualTo("UP");
        assertThat(exchange.get("details").get("tcpPort").asInt()).isEqualTo(xmlServer.port());
    }

    @Test
    void errorsAreProblemsWithStableTypes() {
        String id = account("10");
        Reply duplicate = reply(admin().post(
                        "/api/exchange/accounts", "{\"id\":\"" + id + "\",\"balance\":1,\"owner\":\"someone-else\"}"));
        assertThat(duplicate.status()).isEqualTo(409);
        assertThat(duplicate.contentType()).startsWith("application/problem+json");
        assertThat(duplicate.body().get("type").asString())
                .isEqualTo("https://agora.dev/problems/exchange/account-exists");
        assertThat(duplicate.body().get("code").asInt()).isEqualTo(102);
        // The first owner keeps the account.
        assertThat(owner(id).get("/api/exchange/accounts/" + id).status()).isEqualTo(200);

        Rest trader = owner(id);
        Reply poor = reply(trader.post(
                "/api/exchange/accounts/" + id + "/orders", "{\"symbol\":\"ABC\",\"amount\":2,\"limit\":6}"));
        assertThat(poor.status()).isEqualTo(409);
        assertThat(poor.body().get("type").asString()).endsWith("/exchange/insufficient-funds");

        Reply zero = reply(trader.post(
                "/api/exchange/accounts/" + id + "/orders", "{\"symbol\":\"ABC\",\"amount\":0,\"limit\":6}"));
        assertThat(zero.status()).isEqualTo(400);
        assertThat(zero.body().get("type").asString()).endsWith("/exchange/invalid-amount");

        Reply unknownOrder = reply(trader.get("/api/exchange/accounts/" + id + "/orders/999999999999"));
        assertThat(unknownOrder.status()).isEqualTo(404);
        assertThat(unknownOrder.body().get("type").asString()).endsWith("/exchange/unknown-order");

        // An admin is told an account does not exist; a trader only that it is not theirs (see ExchangeSecurityTest).
        Reply unknownAccount = reply(admin().get("/api/exchange/accounts/" + Ids.account()));
        assertThat(unknownAccount.status()).isEqualTo(404);

        Reply noShares = reply(trader.post(
                "/api/exchange/accounts/" + id + "/orders", "{\"symbol\":\"ABC\",\"amount\":-1,\"limit\":1}"));
        assertThat(noShares.status()).isEqualTo(409);
        assertThat(noShares.body().get("type").asString()).endsWith("/exchange/insufficient-shares");

        long orderId = trader.post(
                        "/api/exchange/accounts/" + id + "/orders", "{\"symbol\":\"ABC\",\"amount\":1,\"limit\":1}")
                .body()
                .get("id")
                .asLong();
        String other = account("1");
        Reply foreign = reply(owner(other).delete("/api/exchange/accounts/" + other + "/orders/" + orderId));
        assertThat(foreign.status()).isEqualTo(403);
        assertThat(foreign.body().get("type").asString()).endsWith("/exchange/foreign-order");
        assertThat(trader.delete("/api/exchange/accounts/" + id + "/orders/" + orderId)
                        .status())
                .isEqualTo(200);
        Reply again = reply(trader.delete("/api/exchange/accounts/" + id + "/orders/" + orderId));
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.body().get("type").asString()).endsWith("/exchange/nothing-open");
    }

    @Test
    void badInputIsRefusedAtTheEdge() {
        String[] bodies = {
            "{\"id\":\"12a\",\"balance\":1,\"owner\":\"ann\"}",
            "{\"id\":\"1\",\"balance\":-1,\"owner\":\"ann\"}",
            "{\"id\":\"1\",\"owner\":\"ann\"}",
            "{\"id\":\"1\",\"balance\":1e999999999,\"owner\":\"ann\"}",
            "{\"id\":\"1\",\"balance\":1}",
            "{\"id\":\"1\",\"balance\":1,\"owner\":\"\"}",
            "{\"id\":\"1\",\"balance\":1,\"owner\":\"ann smith\"}",
            "{\"id\":\"1\",\"balance\":1,\"owner\":\"ann/../root\"}",
            "{\"id\":\"1\",\"balance\":1,\"owner\":\"" + "a".repeat(101) + "\"}",
            "{not json",
        };
        for (String body : bodies) {
            Reply reply = reply(admin().post("/api/exchange/accounts", body));
            assertThat(reply.status()).as(body).isEqualTo(400);
            assertThat(reply.contentType()).as(body).startsWith("application/problem+json");
            assertThat(reply.body().toString()).as(body).doesNotContain("Exception");
        }
        String longest = "a.b_c-d@e" + "x".repeat(91);
        String id = Ids.account();
        assertThat(admin().post(
                                "/api/exchange/accounts",
                                "{\"id\":\"" + id + "\",\"balance\":1,\"owner\":\"" + longest + "\"}")
                        .status())
                .isEqualTo(201);
        Reply badSymbol = reply(
                admin().post("/api/exchange/symbols/BAD-SYM/positions", "{\"accountId\":\"" + id + "\",\"shares\":1}"));
        assertThat(badSymbol.status()).isEqualTo(400);
        Reply badPath = reply(admin().get("/api/exchange/accounts/" + id + "/orders/abc"));
        assertThat(badPath.status()).isEqualTo(400);
    }
}
