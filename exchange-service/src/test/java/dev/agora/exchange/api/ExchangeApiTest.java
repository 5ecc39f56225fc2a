package dev.agora.exchange.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.exchange.support.ExchangeServiceTest;
import dev.agora.exchange.support.Ids;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The JSON API under /api/exchange: the same engine and rules as the XML protocol, problem+json errors. */
class ExchangeApiTest extends ExchangeServiceTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private record Reply(int status, String contentType, JsonNode body) {}

    private Reply call(String method, String path, String json) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + path));
        if (json == null) request.method(method, HttpRequest.BodyPublishers.noBody());
        else
            request.method(method, HttpRequest.BodyPublishers.ofString(json))
                    .header("Content-Type", "application/json");
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode body = response.body().isEmpty() ? null : JSON.readTree(response.body());
        return new Reply(
                response.statusCode(),
                response.headers().firstValue("Content-Type").orElse(""),
                body);
    }

    private String account(String balance) throws Exception {
        String id = Ids.account();
        assertThat(call("POST", "/api/exchange/accounts", "{\"id\":\"" + id + "\",\"balance\":" + balance + "}")
                        .status())
                .isEqualTo(201);
        return id;
    }

    @Test
    void tradesThroughJson() throws Exception {
        String symbol = Ids.symbol();
        String buyer = account("1000");
        String seller = account("0");
        Reply shares = call(
                "POST",
                "/api/exchange/symbols/" + symbol + "/positions",
                "{\"accountId\":\"" + seller + "\",\"shares\":\"10\"}");
        assertThat(shares.status()).isEqualTo(201);
        assertThat(shares.body().get("shares").decimalValue()).isEqualByComparingTo("10");

        Reply sell = call(
                "POST",
                "/api/exchange/accounts/" + seller + "/orders",
                "{\"symbol\":\"" + symbol + "\",\"amount\":-10,\"limit\":80}");
        assertThat(sell.status()).isEqualTo(201);
        assertThat(sell.body().get("open").decimalValue()).isEqualByComparingTo("-10");

        Reply buy = call(
                "POST",
                "/api/exchange/accounts/" + buyer + "/orders",
                "{\"symbol\":\"" + symbol + "\",\"amount\":4,\"limit\":100}");
        assertThat(buy.status()).isEqualTo(201);
        assertThat(buy.body().get("open").isNull()).isTrue();
        assertThat(buy.body().get("executions").get(0).get("price").decimalValue())
                .isEqualByComparingTo("80");

        Reply buyerView = call("GET", "/api/exchange/accounts/" + buyer, null);
        assertThat(buyerView.body().get("balance").decimalValue()).isEqualByComparingTo("680");
        assertThat(buyerView.body().get("positions").get(symbol).decimalValue()).isEqualByComparingTo("4");

        long sellId = sell.body().get("id").asLong();
        Reply canceled = call("DELETE", "/api/exchange/accounts/" + seller + "/orders/" + sellId, null);
        assertThat(canceled.status()).isEqualTo(200);
        assertThat(canceled.body().get("canceled").get("shares").decimalValue()).isEqualByComparingTo("-6");
        assertThat(call("GET", "/api/exchange/accounts/" + seller + "/orders/" + sellId, null)
                        .body()
                        .get("executions")
                        .size())
                .isEqualTo(1);
    }

    @Test
    void decimalsAreWrittenPlainAndExact() throws Exception {
        String id = Ids.account();
        HttpResponse<String> created = HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/api/exchange/accounts"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"id\":\"" + id + "\",\"balance\":\"0.0000001\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(created.statusCode()).isEqualTo(201);
        assertThat(created.body()).contains("\"balance\":0.0000001");
    }

    @Test
    void groupCommitIsObservable() throws Exception {
        account("1");
        HttpResponse<String> metrics = HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/actuator/prometheus"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(metrics.body())
                .contains("agora_exchange_batch_commands_count")
                .contains("agora_exchange_batch_commit_seconds_bucket")
                .contains("agora_exchange_commands_total")
                .contains("agora_exchange_queue_depth");
        Reply health = call("GET", "/actuator/health", null);
        JsonNode exchange = health.body().get("components").get("exchange");
        assertThat(exchange.get("status").asString()).isEqualTo("UP");
        assertThat(exchange.get("details").get("tcpPort").asInt()).isEqualTo(xmlServer.port());
    }

    @Test
    void errorsAreProblemsWithStableTypes() throws Exception {
        String id = account("10");
        Reply duplicate = call("POST", "/api/exchange/accounts", "{\"id\":\"" + id + "\",\"balance\":1}");
        assertThat(duplicate.status()).isEqualTo(409);
        assertThat(duplicate.contentType()).startsWith("application/problem+json");
        assertThat(duplicate.body().get("type").asString())
                .isEqualTo("https://agora.dev/problems/exchange/account-exists");
        assertThat(duplicate.body().get("code").asInt()).isEqualTo(102);

        Reply poor = call(
                "POST", "/api/exchange/accounts/" + id + "/orders", "{\"symbol\":\"ABC\",\"amount\":2,\"limit\":6}");
        assertThat(poor.status()).isEqualTo(409);
        assertThat(poor.body().get("type").asString()).endsWith("/exchange/insufficient-funds");

        Reply zero = call(
                "POST", "/api/exchange/accounts/" + id + "/orders", "{\"symbol\":\"ABC\",\"amount\":0,\"limit\":6}");
        assertThat(zero.status()).isEqualTo(400);
        assertThat(zero.body().get("type").asString()).endsWith("/exchange/invalid-amount");

        Reply unknownOrder = call("GET", "/api/exchange/accounts/" + id + "/orders/999999999999", null);
        assertThat(unknownOrder.status()).isEqualTo(404);
        assertThat(unknownOrder.body().get("type").asString()).endsWith("/exchange/unknown-order");

        Reply unknownAccount = call("GET", "/api/exchange/accounts/" + Ids.account(), null);
        assertThat(unknownAccount.status()).isEqualTo(404);

        Reply noShares = call(
                "POST", "/api/exchange/accounts/" + id + "/orders", "{\"symbol\":\"ABC\",\"amount\":-1,\"limit\":1}");
        assertThat(noShares.status()).isEqualTo(409);
        assertThat(noShares.body().get("type").asString()).endsWith("/exchange/insufficient-shares");

        long orderId = call(
                        "POST",
                        "/api/exchange/accounts/" + id + "/orders",
                        "{\"symbol\":\"ABC\",\"amount\":1,\"limit\":1}")
                .body()
                .get("id")
                .asLong();
        String other = account("1");
        Reply foreign = call("DELETE", "/api/exchange/accounts/" + other + "/orders/" + orderId, null);
        assertThat(foreign.status()).isEqualTo(403);
        assertThat(foreign.body().get("type").asString()).endsWith("/exchange/foreign-order");
        assertThat(call("DELETE", "/api/exchange/accounts/" + id + "/orders/" + orderId, null)
                        .status())
                .isEqualTo(200);
        Reply again = call("DELETE", "/api/exchange/accounts/" + id + "/orders/" + orderId, null);
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.body().get("type").asString()).endsWith("/exchange/nothing-open");
    }

    @Test
    void badInputIsRefusedAtTheEdge() throws Exception {
        String[] bodies = {
            "{\"id\":\"12a\",\"balance\":1}",
            "{\"id\":\"1\",\"balance\":-1}",
            "{\"id\":\"1\"}",
            "{\"id\":\"1\",\"balance\":1e999999999}",
            "{not json",
        };
        for (String body : bodies) {
            Reply reply = call("POST", "/api/exchange/accounts", body);
            assertThat(reply.status()).as(body).isEqualTo(400);
            assertThat(reply.contentType()).as(body).startsWith("application/problem+json");
            assertThat(reply.body().toString()).as(body).doesNotContain("Exception");
        }
        String id = account("10");
        Reply badSymbol =
                call("POST", "/api/exchange/symbols/BAD-SYM/positions", "{\"accountId\":\"" + id + "\",\"shares\":1}");
        assertThat(badSymbol.status()).isEqualTo(400);
        Reply badPath = call("GET", "/api/exchange/accounts/" + id + "/orders/abc", null);
        assertThat(badPath.status()).isEqualTo(400);
    }
}
