package dev.agora.exchange.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.exchange.support.ExchangeServiceTest;
import dev.agora.exchange.support.Ids;
import dev.agora.exchange.support.Rest;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Who may call the exchange's JSON API, over real HTTP with real signed tokens: every refusal is a problem+json
 * 401, 403 or 400, and each is followed by a look at PostgreSQL (the exchange's durable truth, written before any
 * reply) to prove that the refused request changed nothing. Account A belongs to the trader "ann", B to "bob".
 */
class ExchangeSecurityTest extends ExchangeServiceTest {

    private static final String ANN = "ann";
    private static final String BOB = "bob";

    @Autowired
    private JdbcTemplate db;

    /** A's and B's accounts, a symbol A holds shares of, and an open order of A's: opened by an admin and A. */
    private record Market(String a, String b, String symbol, long openOrderOfA) {}

    private Market market() {
        String a = openAccount(ANN, "1000");
        String b = openAccount(BOB, "1000");
        String symbol = Ids.symbol();
        assertThat(rest(adminToken())
                        .post(
                                "/api/exchange/symbols/" + symbol + "/positions",
                                "{\"accountId\":\"" + a + "\",\"shares\":50}")
                        .status())
                .isEqualTo(201);
        Rest.Reply sell = ann().post(
                        "/api/exchange/accounts/" + a + "/orders",
                        "{\"symbol\":\"" + symbol + "\",\"amount\":-5,\"limit\":1000}");
        assertThat(sell.status()).isEqualTo(201);
        return new Market(a, b, symbol, sell.body().get("id").asLong());
    }

    private String openAccount(String owner, String balance) {
        String id = Ids.account();
        Rest.Reply created = rest(adminToken())
                .post(
                        "/api/exchange/accounts",
                        "{\"id\":\"" + id + "\",\"balance\":" + balance + ",\"owner\":\"" + owner + "\"}");
        assertThat(created.status()).isEqualTo(201);
        return id;
    }

    private static Rest.Reply refused(Rest.Reply reply, int status) {
        assertThat(reply.status()).as(reply.text()).isEqualTo(status);
        assertThat(reply.isProblem()).as(reply.contentType()).isTrue();
        return reply;
    }

    private Rest ann() {
        return rest(ISSUER.token(ANN, "trader"));
    }

    private Rest bob() {
        return rest(ISSUER.token(BOB, "trader"));
    }

    // What PostgreSQL holds.

    /** Everything about an account that a request could change: balance, positions, its orders and their state. */
    private Map<String, Object> stateOf(String account) {
        return Map.of(
                "account",
                db.queryForList("SELECT balance, owner FROM account WHERE id = ?", account),
                "positions",
                db.queryForList("SELECT symbol, shares FROM position WHERE account_id = ? ORDER BY symbol", account),
                "orders",
                db.queryForList(
                        "SELECT id, amount, open_shares, canceled_shares FROM exchange_order WHERE account_id = ?"
                                + " ORDER BY id",
                        account));
    }

    private boolean exists(String account) {
        return db.queryForObject("SELECT count(*) FROM account WHERE id = ?", Integer.class, account) > 0;
    }

    private BigDecimal openShares(long order) {
        return db.queryForObject("SELECT open_shares FROM exchange_order WHERE id = ?", BigDecimal.class, order);
    }

    /** Every way a caller can try to change or read A's account, and to do an admin's work. */
    private List<Attempt> attemptsOn(Market market, String newAccount) {
        String orders = "/api/exchange/accounts/" + market.a() + "/orders";
        return List.of(
                new Attempt(
                        "POST",
                        "/api/exchange/accounts",
                        "{\"id\":\"" + newAccount + "\",\"balance\":1000000,\"owner\":\"" + BOB + "\"}"),
                new Attempt(
                        "POST",
                        "/api/exchange/symbols/" + market.symbol() + "/positions",
                        "{\"accountId\":\"" + market.a() + "\",\"shares\":1000}"),
                new Attempt("GET", "/api/exchange/accounts/" + market.a(), null),
                new Attempt("POST", orders, "{\"symbol\":\"" + market.symbol() + "\",\"amount\":-45,\"limit\":1}"),
                new Attempt("POST", orders, "{\"symbol\":\"" + market.symbol() + "\",\"amount\":1,\"limit\":900}"),
                new Attempt("GET", orders + "/" + market.openOrderOfA(), null),
                new Attempt("DELETE", orders + "/" + market.openOrderOfA(), null));
    }

    private record Attempt(String method, String path, String json) {
        Rest.Reply by(Rest caller) {
            return caller.call(method, path, json);
        }
    }

    private void assertNothingChanged(Market market, Map<String, Object> aBefore, String newAccount) {
        assertThat(stateOf(market.a())).isEqualTo(aBefore);
        assertThat(openShares(market.openOrderOfA())).isEqualByComparingTo("5");
        assertThat(exists(newAccount))
                .as("account " + newAccount + " was created")
                .isFalse();
    }

    @Test
    void withoutAValidTokenEverythingIsRefusedWith401AndNothingChanges() {
        Market market = market();
        Map<String, Object> before = stateOf(market.a());
        String newAccount = Ids.account();
        Map<String, String> tokens = new java.util.LinkedHashMap<>();
        tokens.put("no token", null);
        tokens.put("expired", ISSUER.expiredToken(ANN, "admin", "trader"));
        tokens.put("forged (signed with another key)", ISSUER.forgedToken(ANN, "admin", "trader"));
        tokens.put("from another issuer", ISSUER.tokenFromOtherIssuer(ANN, "admin", "trader"));
        tokens.put("not a token", "not-a-jwt");
        for (Map.Entry<String, String> token : tokens.entrySet()) {
            for (Attempt attempt : attemptsOn(market, newAccount)) {
                Rest.Reply reply = attempt.by(rest(token.getValue()));
                assertThat(reply.status())
                        .as(token.getKey() + ": " + attempt.method() + " " + attempt.path())
                        .isEqualTo(401);
                assertThat(reply.isProblem()).isTrue();
                assertThat(reply.wwwAuthenticate()).startsWith("Bearer");
                assertThat(reply.text()).doesNotContain("balance");
            }
        }
        assertNothingChanged(market, before, newAccount);
    }

    @Test
    void aTraderCannotOpenAccountsOrGrantShares() {
        Market market = market();
        Map<String, Object> before = stateOf(market.a());
        String newAccount = Ids.account();
        // Ann owns A, and still may not add to it or open another.
        refused(
                ann().post(
                                "/api/exchange/accounts",
                                "{\"id\":\"" + newAccount + "\",\"balance\":1000000,\"owner\":\"" + ANN + "\"}"),
                403);
        refused(
                ann().post(
                                "/api/exchange/symbols/" + market.symbol() + "/positions",
                                "{\"accountId\":\"" + market.a() + "\",\"shares\":1000}"),
                403);
        assertNothingChanged(market, before, newAccount);
    }

    @Test
    void anotherTraderCannotReadOrTradeOnAnAccount() {
        Market market = market();
        Map<String, Object> aBefore = stateOf(market.a());
        Map<String, Object> bBefore = stateOf(market.b());
        String newAccount = Ids.account();
        for (Attempt attempt : attemptsOn(market, newAccount)) {
            Rest.Reply reply = refused(attempt.by(bob()), 403);
            assertThat(reply.text()).doesNotContain("balance").doesNotContain(market.symbol());
        }
        // Bob naming his own account with Ann's order: the order is still not his.
        Rest.Reply foreign =
                refused(bob().delete("/api/exchange/accounts/" + market.b() + "/orders/" + market.openOrderOfA()), 403);
        assertThat(foreign.body().get("type").asString()).endsWith("/exchange/foreign-order");
        refused(bob().get("/api/exchange/accounts/" + market.b() + "/orders/" + market.openOrderOfA()), 403);
        assertNothingChanged(market, aBefore, newAccount);
        assertThat(stateOf(market.b())).isEqualTo(bBefore);
    }

    @Test
    void aTraderIsNotToldWhetherAnotherAccountExists() {
        String unknown = Ids.account();
        Rest.Reply missing = refused(bob().get("/api/exchange/accounts/" + unknown), 403);
        Rest.Reply others = refused(bob().get("/api/exchange/accounts/" + openAccount(ANN, "1")), 403);
        assertThat(missing.body().get("type")).isEqualTo(others.body().get("type"));
        refused(
                bob().post(
                                "/api/exchange/accounts/" + unknown + "/orders",
                                "{\"symbol\":\"ABC\",\"amount\":1,\"limit\":1}"),
                403);
        assertThat(exists(unknown)).isFalse();
    }

    @Test
    void theOwnerReadsTradesQueriesAndCancels() {
        Market market = market();
        String orders = "/api/exchange/accounts/" + market.a() + "/orders";
        Rest.Reply view = ann().get("/api/exchange/accounts/" + market.a());
        assertThat(view.status()).isEqualTo(200);
        assertThat(view.body().get("owner").asString()).isEqualTo(ANN);
        assertThat(view.body().get("positions").get(market.symbol()).decimalValue())
                .isEqualByComparingTo("45");

        Rest.Reply placed = ann().post(orders, "{\"symbol\":\"" + market.symbol() + "\",\"amount\":-5,\"limit\":2000}");
        assertThat(placed.status()).isEqualTo(201);
        long order = placed.body().get("id").asLong();
        assertThat(openShares(order)).isEqualByComparingTo("5");
        assertThat(ann().get(orders + "/" + order).status()).isEqualTo(200);
        assertThat(ann().delete(orders + "/" + order).status()).isEqualTo(200);
        assertThat(openShares(order)).isZero();
        assertThat(db.queryForObject(
                        "SELECT shares FROM position WHERE account_id = ? AND symbol = ?",
                        BigDecimal.class,
                        market.a(),
                        market.symbol()))
                .isEqualByComparingTo("45");
    }

    @Test
    void anAdminMayActOnAnyAccount() {
        Market market = market();
        Rest admin = rest(adminToken());
        String orders = "/api/exchange/accounts/" + market.a() + "/orders";
        assertThat(admin.get("/api/exchange/accounts/" + market.a()).status()).isEqualTo(200);
        assertThat(admin.get(orders + "/" + market.openOrderOfA()).status()).isEqualTo(200);
        assertThat(admin.delete(orders + "/" + market.openOrderOfA()).status()).isEqualTo(200);
        assertThat(openShares(market.openOrderOfA())).isZero();
        Rest.Reply placed = admin.post(orders, "{\"symbol\":\"" + market.symbol() + "\",\"amount\":1,\"limit\":3}");
        assertThat(placed.status()).isEqualTo(201);
        assertThat(db.queryForObject(
                        "SELECT account_id FROM exchange_order WHERE id = ?",
                        String.class,
                        placed.body().get("id").asLong()))
                .isEqualTo(market.a());
    }

    @Test
    void anAccountOpenedOverXmlHasNoOwnerSoOnlyAnAdminReachesItOverRest() {
        String id = Ids.account();
        assertThat(createAccount(id, "100")).isEqualTo("<results><created id=\"" + id + "\"/></results>");
        assertThat(db.queryForObject("SELECT owner FROM account WHERE id = ?", String.class, id))
                .isNull();
        Rest.Reply view = rest(adminToken()).get("/api/exchange/accounts/" + id);
        assertThat(view.status()).isEqualTo(200);
        assertThat(view.body().get("owner").isNull()).isTrue();
        Map<String, Object> before = stateOf(id);
        refused(ann().get("/api/exchange/accounts/" + id), 403);
        refused(
                ann().post("/api/exchange/accounts/" + id + "/orders", "{\"symbol\":\"ABC\",\"amount\":1,\"limit\":1}"),
                403);
        assertThat(stateOf(id)).isEqualTo(before);
    }

    @Test
    void anOwnerWithoutTheTraderRoleAndServicesAreRefused() {
        String carols = openAccount("carol", "100");
        Map<String, Object> before = stateOf(carols);
        refused(rest(ISSUER.token("carol", "customer")).get("/api/exchange/accounts/" + carols), 403);
        refused(
                rest(ISSUER.token("carol", "customer", "publisher"))
                        .post(
                                "/api/exchange/accounts/" + carols + "/orders",
                                "{\"symbol\":\"ABC\",\"amount\":1,\"limit\":1}"),
                403);
        refused(rest(ISSUER.serviceToken("frontend-service")).get("/api/exchange/accounts/" + carols), 403);
        String newAccount = Ids.account();
        refused(
                rest(ISSUER.serviceToken("frontend-service"))
                        .post(
                                "/api/exchange/accounts",
                                "{\"id\":\"" + newAccount + "\",\"balance\":1,\"owner\":\"carol\"}"),
                403);
        assertThat(stateOf(carols)).isEqualTo(before);
        assertThat(exists(newAccount)).isFalse();
        // With the role, the owner gets in.
        assertThat(rest(ISSUER.token("carol", "customer", "trader"))
                        .get("/api/exchange/accounts/" + carols)
                        .status())
                .isEqualTo(200);
    }

    @Test
    void pathsTheRulesDoNotNameAreForAdminsOnly() {
        refused(ann().get("/api/exchange/symbols"), 403);
        refused(ann().get("/api/exchange/accounts"), 403);
        refused(ann().get("/api/exchange"), 403);
        assertThat(rest(adminToken()).get("/api/exchange/symbols").status()).isEqualTo(404);
    }

    /**
     * Paths that a lenient server would normalize onto another resource than the one the rules see: encoded dots
     * and slashes, {@code ;} parameters, doubled slashes, dot segments. Spring Security's firewall refuses them
     * (problem+json) before any rule or controller runs, whoever sends them; an encoded slash or backslash Tomcat
     * refuses first.
     */
    @Test
    void trickPathsAreRefusedWith400AndChangeNothing() {
        Market market = market();
        Map<String, Object> aBefore = stateOf(market.a());
        String newAccount = Ids.account();
        String create = "{\"id\":\"" + newAccount + "\",\"balance\":1000000,\"owner\":\"" + BOB + "\"}";
        String sellAll = "{\"symbol\":\"" + market.symbol() + "\",\"amount\":-45,\"limit\":1}";
        String a = market.a();
        String b = market.b();
        List<Attempt> tricks = List.of(
                // Normalized, each of these is POST /api/exchange/accounts, which only an admin may do.
                new Attempt("POST", "/api/exchange/accounts/" + b + "/orders/%2e%2e/%2e%2e/%2e%2e", create),
                new Attempt("POST", "/api/exchange/accounts/" + b + "/orders/../../..", create),
                new Attempt("POST", "/api/exchange/accounts/%2e%2e/accounts", create),
                new Attempt("POST", "/api/exchange/accounts;role=admin", create),
                new Attempt("POST", "/api/exchange/accounts/;x", create),
                new Attempt("POST", "//api/exchange/accounts", create),
                new Attempt("POST", "/api/exchange//accounts", create),
                new Attempt("POST", "/api/exchange/./accounts", create),
                new Attempt("POST", "/api/exchange/%2E/accounts", create),
                new Attempt("POST", "/api/exchange%2Faccounts", create),
                new Attempt("POST", "/api/exchange%5Caccounts", create),
                // Bob reaching through his own account into Ann's.
                new Attempt("POST", "/api/exchange/accounts/" + b + "/%2e%2e/" + a + "/orders", sellAll),
                new Attempt("POST", "/api/exchange/accounts/" + b + "/../" + a + "/orders", sellAll),
                new Attempt("POST", "/api/exchange/accounts/" + b + ";/../" + a + "/orders", sellAll),
                new Attempt("GET", "/api/exchange/accounts/" + b + "/%2e%2e/" + a, null),
                new Attempt("GET", "/api/exchange/accounts/" + b + "%2F..%2F" + a, null),
                new Attempt(
                        "DELETE",
                        "/api/exchange/accounts/" + b + "/%2e%2e/" + a + "/orders/" + market.openOrderOfA(),
                        null));
        for (String token : new String[] {ISSUER.token(BOB, "trader"), null}) {
            for (Attempt trick : tricks) {
                Rest.Reply reply = rest(token).raw(trick.method(), trick.path(), trick.json());
                assertThat(reply.status())
                        .as(trick.method() + " " + trick.path() + (token == null ? " (no token)" : ""))
                        .isEqualTo(400);
                // Tomcat itself refuses an encoded slash or backslash, with its own page, before the application.
                if (!trick.path().contains("%2F") && !trick.path().contains("%5C")) {
                    assertThat(reply.isProblem())
                            .as(trick.path() + ": " + reply.contentType())
                            .isTrue();
                }
            }
        }
        assertNothingChanged(market, aBefore, newAccount);
    }
}
