package dev.agora.launcher.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agora.common.security.testing.FormSignIn;
import dev.agora.launcher.credentials.Credentials;
import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

/**
 * The launched cluster end to end, as a client sees it: the bookstore through the frontends, the exchange through
 * the frontend's proxy and over its TCP protocol, the control endpoint, the demo users the launcher creates and
 * what their tokens may and may not do (SECURITY.md), and state surviving a restart of the whole cluster. The
 * exchange standby taking over from a killed active exchange is {@link ClusterFailoverTest}'s last case.
 */
@ClusterTest
@ExtendWith(SharedCluster.Resolver.class)
// Before ClusterFailoverTest: it restarts the whole shared cluster and leaves it whole for the failover test, which
// leaves instances down that no class after it needs (the exchange standby's takeover is its last case, so that no
// exchange is restarted between the classes for it).
@Order(1)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterEndToEndTest {

    /** How long the XML port may stay closed while the standby takes over the lease. */
    private static final Duration TAKEOVER = Duration.ofSeconds(15);

    private final Http http = new Http(Duration.ofSeconds(10));
    private SharedCluster shared;
    private Path dataDirectory;
    private ClusterSpec spec;
    private Cluster cluster;
    private Bookstore bookstore;

    private final String restAccount = Long.toString(ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE));
    private final String tcpAccount = Long.toString(ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE));
    private long securityBook;

    @BeforeAll
    void useTheSharedCluster(SharedCluster shared) {
        this.shared = shared;
        dataDirectory = shared.dataDirectory();
        spec = shared.spec();
        cluster = shared.cluster();
        bookstore = new Bookstore(cluster, http);
    }

    @Test
    @Order(1)
    void theClusterRunsEveryInstanceOnItsPortWithItsOwnLog() {
        assertThat(cluster.instances())
                .extracting(Instance::name)
                .containsExactly(
                        "catalog-1",
                        "catalog-2",
                        "exchange-1",
                        "exchange-2",
                        "order-1",
                        "order-2",
                        "frontend-1",
                        "frontend-2");
        int offset = spec.portOffset();
        assertThat(cluster.urls("frontend")).containsExactly(local(8080 + offset), local(8081 + offset));
        assertThat(cluster.urls("catalog")).containsExactly(local(8180 + offset), local(8181 + offset));
        assertThat(cluster.urls("order")).containsExactly(local(8280 + offset), local(8281 + offset));
        assertThat(cluster.urls("exchange")).containsExactly(local(8380 + offset), local(8381 + offset));
        assertThat(cluster.exchangeTcpPorts()).containsExactly(12_345 + offset, 12_346 + offset);
        assertThat(cluster.exchangeTcpPort()).isEqualTo(12_345 + offset);
        for (Instance instance : cluster.instances()) {
            assertThat(instance.pid()).as(instance.name()).isPositive();
            assertThat(instance.log()).isEqualTo(dataDirectory.resolve("logs").resolve(instance.name() + ".log"));
            assertThat(instance.log()).isNotEmptyFile();
        }
        assertThat(cluster.startupTimes().instances()).hasSize(8);
    }

    @Test
    @Order(2)
    void searchLookupBuyAndReadTheOrderThroughTheFrontends() throws Exception {
        String topic = URLEncoder.encode("distributed systems", StandardCharsets.UTF_8);
        Http.Reply search = http.get(bookstore.frontend(1) + "/api/books?topic=" + topic);
        assertThat(search.status()).as("search: %s", search).isEqualTo(200);
        assertThat(search.json().valueStream().map(book -> book.path("id").asLong()))
                .as("the classic distributed-systems titles")
                .contains(1L, 2L)
                .doesNotContain(3L, 4L);

        Http.Reply before = bookstore.lookup(bookstore.frontend(2), 2);
        assertThat(before.status()).as("lookup: %s", before).isEqualTo(200);
        assertThat(before.json().path("title").asString()).isEqualTo("RPCs for Dummies.");
        BigDecimal price = before.json().path("price").decimalValue();
        long stock = before.json().path("stock").asLong();

        String key = UUID.randomUUID().toString();
        Http.Reply bought = bookstore.buy(bookstore.frontend(1), 2, 1, key);
        assertThat(bought.status()).as("buy: %s", bought).isEqualTo(201);
        JsonNode order = bought.json();
        assertThat(order.path("status").asString()).isEqualTo("CONFIRMED");
        assertThat(order.path("bookId").asLong()).isEqualTo(2);
        assertThat(order.path("total").decimalValue()).isEqualByComparingTo(price);
        long orderId = order.path("orderId").asLong();

        Http.Reply again = bookstore.buy(bookstore.frontend(2), 2, 1, key);
        assertThat(again.status()).as("retried buy: %s", again).isEqualTo(201);
        assertThat(again.json().path("orderId").asLong())
                .as("same order for the same key")
                .isEqualTo(orderId);

        Http.Reply read =
                http.get(bookstore.frontend(2) + "/api/orders/" + orderId, "Authorization", bookstore.customer());
        assertThat(read.status()).as("order read by its buyer: %s", read).isEqualTo(200);
        assertThat(read.json().path("status").asString()).isEqualTo("CONFIRMED");

        Http.Reply after = bookstore.lookup(bookstore.frontend(2), 2);
        assertThat(after.json().path("stock").asLong())
                .as("read your writes through the other frontend's cache; stock taken once")
                .isEqualTo(stock - 1);
    }

    @Test
    @Order(3)
    void badInputGetsProblemJsonThroughTheFrontend() throws Exception {
        Http.Reply malformed = http.post(
                bookstore.frontend(1) + "/api/orders",
                "{\"bookId\":",
                "Idempotency-Key",
                "k1",
                "Authorization",
                bookstore.customer());
        assertThat(malformed.status()).as("malformed: %s", malformed).isEqualTo(400);
        assertThat(malformed.isProblem()).isTrue();
        Http.Reply zero =
                bookstore.buy(bookstore.frontend(1), 1, 0, UUID.randomUUID().toString());
        assertThat(zero.status()).as("quantity 0: %s", zero).isEqualTo(400);
        assertThat(zero.isProblem()).isTrue();
        Http.Reply unknown = bookstore.lookup(bookstore.frontend(1), 987_654_321);
        assertThat(unknown.status()).as("unknown book: %s", unknown).isEqualTo(404);
        assertThat(unknown.isProblem()).isTrue();
    }

    @Test
    @Order(4)
    void theExchangeAnswersThroughTheFrontendAndOverTcp() throws Exception {
        // An admin opens the account for the demo trader, who then reads it as its owner.
        Http.Reply created = http.post(
                bookstore.frontend(1) + "/api/exchange/accounts",
                Map.of("id", restAccount, "balance", new BigDecimal("1000.50"), "owner", "trader"),
                "Authorization",
                bookstore.admin());
        assertThat(created.status())
                .as("create account via frontend: %s", created)
                .isEqualTo(201);
        Http.Reply account = http.get(
                bookstore.frontend(2) + "/api/exchange/accounts/" + restAccount, "Authorization", bookstore.trader());
        assertThat(account.status())
                .as("read account via frontend: %s", account)
                .isEqualTo(200);
        assertThat(account.json().path("balance").decimalValue()).isEqualByComparingTo("1000.50");

        String reply = XmlClient.sendToActive(
                        cluster.exchangeTcpPorts(),
                        "<create><account id=\"" + tcpAccount + "\" balance=\"250\"/></create>",
                        TAKEOVER)
                .xml();
        assertThat(reply).contains("<results>").contains("<created id=\"" + tcpAccount + "\"/>");
        // Created over the protocol, which carries no identities: it has no owner, so over REST only an admin sees it.
        Http.Reply viaRest = http.get(
                bookstore.frontend(1) + "/api/exchange/accounts/" + tcpAccount, "Authorization", bookstore.admin());
        assertThat(viaRest.status())
                .as("TCP-created account via REST: %s", viaRest)
                .isEqualTo(200);
    }

    @Test
    @Order(5)
    void theControlEndpointListsAndControlsInstances() throws Exception {
        String token = ControlToken.create(dataDirectory);
        try (ControlServer control = ControlServer.start(cluster, 0, token)) {
            ControlClient client = new ControlClient(control.port(), token);
            assertThat(client.instances()).extracting(Instance::name).hasSize(8).contains("frontend-2", "exchange-1");
            assertThat(client.instances())
                    .allSatisfy(instance -> assertThat(instance.pid()).isPositive());
            assertThatThrownBy(() -> client.kill("catalog-9"))
                    .isInstanceOf(ControlClient.ControlException.class)
                    .satisfies(e -> assertThat(((ControlClient.ControlException) e).status())
                            .isEqualTo(404));
            Http.Reply wrongMethod = http.get(
                    "http://127.0.0.1:" + control.port() + "/instances/catalog-1/kill",
                    "Authorization",
                    "Bearer " + token);
            assertThat(wrongMethod.status()).isEqualTo(405);
            assertThat(wrongMethod.isProblem()).isTrue();
            // A restart through the endpoint (answered once ready, a new process) is proven in ClusterFailoverTest,
            // whose faults all go through it: restarting an instance here too would cost a service start for the
            // same path.
        }
    }

    @Test
    @Order(6)
    void theLauncherWritesTheDemoCredentialsWithExactlyTheirKeysForItsOwnerOnly() throws IOException {
        Path file = dataDirectory.resolve("demo-credentials.properties");
        assertThat(cluster.credentialsFile()).isEqualTo(file);
        assertThat(file).isRegularFile();
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        }
        assertThat(properties.stringPropertyNames())
                .containsExactlyInAnyOrder(
                        "admin.client-id",
                        "admin.client-secret",
                        "trader.client-id",
                        "trader.client-secret",
                        "customer.client-id",
                        "customer.client-secret",
                        "token-url",
                        "admin.password",
                        "trader.password",
                        "customer.password",
                        "publisher.password");
        assertThat(properties.getProperty("customer.client-id")).isEqualTo("demo-customer");
        assertThat(properties.getProperty("token-url")).isEqualTo(bookstore.frontend(1) + "/oauth2/token");
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                    .isEqualTo("rw-------");
        }
    }

    @Test
    @Order(7)
    void theDemoPeopleSignInOnTheWebPagesWithTheirPasswordsAndTheirSessionHoldsOnEveryFrontend() throws Exception {
        Credentials credentials = cluster.credentials();
        FormSignIn web = new FormSignIn();
        for (String person : Credentials.PEOPLE) {
            assertThat(web.signIn(
                            bookstore.frontend(1),
                            person,
                            credentials.passwords().get(person)))
                    .as(person + " signs in with " + person + ".password")
                    .isPresent();
        }
        String customer = web.signIn(
                        bookstore.frontend(1),
                        "customer",
                        credentials.passwords().get("customer"))
                .orElseThrow();
        // Signed in on frontend 1, seen on frontend 2: the session is in the identity database both share.
        HttpResponse<String> orders = web.get(bookstore.frontend(2) + "/orders", customer);
        assertThat(orders.statusCode()).as(orders.body()).isEqualTo(200);
        assertThat(orders.body()).contains("customer");
        assertThat(web.get(bookstore.frontend(2) + "/orders", null).statusCode())
                .as("without the cookie: to the sign-in page")
                .isEqualTo(302);

        assertThat(web.signIn(
                        bookstore.frontend(2),
                        "customer",
                        credentials.passwords().get("admin")))
                .as("another's password")
                .isEmpty();
    }

    @Test
    @Order(7)
    void aTokenFromTheDemoCredentialsBuysAsTheCustomerAndAWrongSecretGetsNone() throws Exception {
        Credentials credentials = cluster.credentials();
        Http.Reply token = http.postForm(
                credentials.tokenUrl().toString(),
                "grant_type=client_credentials",
                "Authorization",
                basic(credentials.customer().id(), credentials.customer().secret()));
        assertThat(token.status()).as("token request: %s", token.status()).isEqualTo(200);
        assertThat(token.json().path("token_type").asString()).isEqualToIgnoringCase("Bearer");
        assertThat(token.json().path("expires_in").asLong()).isBetween(60L, 900L);
        String accessToken = token.json().path("access_token").asString();

        long book = securityBook();
        Http.Reply bought = http.post(
                bookstore.frontend(2) + "/api/orders",
                Http.buy(book, 1),
                "Idempotency-Key",
                UUID.randomUUID().toString(),
                "Authorization",
                "Bearer " + accessToken);
        assertThat(bought.status()).as("buy with the token: %s", bought).isEqualTo(201);
        assertThat(bought.json().path("status").asString()).isEqualTo("CONFIRMED");

        Http.Reply wrong = http.postForm(
                credentials.tokenUrl().toString(),
                "grant_type=client_credentials",
                "Authorization",
                basic(credentials.customer().id(), credentials.admin().secret()));
        assertThat(wrong.status())
                .as("token request with another client's secret: %s", wrong)
                .isEqualTo(401);
        assertThat(wrong.body()).doesNotContain("access_token");
    }

    @Test
    @Order(8)
    void aBuyWithoutAValidTokenIsRefusedWith401AndTakesNoStock() throws Exception {
        long book = securityBook();
        long stock = bookstore.catalogBook(book).path("stock").asLong();

        Http.Reply none = http.post(
                bookstore.frontend(1) + "/api/orders",
                Http.buy(book, 1),
                "Idempotency-Key",
                UUID.randomUUID().toString());
        assertThat(none.status()).as("buy without a token: %s", none).isEqualTo(401);
        assertThat(none.isProblem()).as("problem+json: %s", none).isTrue();
        Http.Reply forged = http.post(
                bookstore.frontend(1) + "/api/orders",
                Http.buy(book, 1),
                "Idempotency-Key",
                UUID.randomUUID().toString(),
                "Authorization",
                "Bearer not-a-token");
        assertThat(forged.status()).as("buy with a made-up token: %s", forged).isEqualTo(401);
        Http.Reply direct = http.post(
                bookstore.order(1) + "/orders",
                Http.buy(book, 1),
                "Idempotency-Key",
                UUID.randomUUID().toString());
        assertThat(direct.status())
                .as("buy at an order service without a token: %s", direct)
                .isEqualTo(401);

        assertThat(bookstore.catalogBook(book).path("stock").asLong())
                .as("no refused buy took stock")
                .isEqualTo(stock);
    }

    @Test
    @Order(9)
    void aCustomerTokenOnAnAdminCallIsRefusedWith403AndChangesNoStock() throws Exception {
        long book = securityBook();
        long stock = bookstore.catalogBook(book).path("stock").asLong();
        Map<String, Object> restock = Map.of("quantity", 5);

        Http.Reply atCatalog = http.post(
                bookstore.catalog(1) + "/admin/books/" + book + "/restock",
                restock,
                "Authorization",
                bookstore.customer());
        assertThat(atCatalog.status())
                .as("customer restocks at the catalog: %s", atCatalog)
                .isEqualTo(403);
        assertThat(atCatalog.isProblem()).as("problem+json: %s", atCatalog).isTrue();
        Http.Reply viaFrontend = http.post(
                bookstore.frontend(1) + "/api/admin/books/" + book + "/restock",
                restock,
                "Authorization",
                bookstore.customer());
        assertThat(viaFrontend.status())
                .as("customer restocks through the frontend: %s", viaFrontend)
                .isEqualTo(403);
        Http.Reply anonymous = http.post(bookstore.catalog(2) + "/admin/books/" + book + "/restock", restock);
        assertThat(anonymous.status())
                .as("restock without a token: %s", anonymous)
                .isEqualTo(401);
        assertThat(bookstore.catalogBook(book).path("stock").asLong())
                .as("no refused restock changed the stock")
                .isEqualTo(stock);

        Http.Reply asAdmin = http.post(
                bookstore.frontend(2) + "/api/admin/books/" + book + "/restock",
                restock,
                "Authorization",
                bookstore.admin());
        assertThat(asAdmin.status())
                .as("admin restocks through the frontend: %s", asAdmin)
                .isBetween(200, 299);
        assertThat(bookstore.catalogBook(book).path("stock").asLong()).isEqualTo(stock + 5);
    }

    @Test
    @Order(10)
    void aCustomerListsAndReadsOnlyTheirOwnOrders() throws Exception {
        long book = securityBook();
        Http.Reply mine = bookstore.buy(bookstore.frontend(1), book);
        assertThat(mine.status()).as("customer's buy: %s", mine).isEqualTo(201);
        long mineId = mine.json().path("orderId").asLong();
        // The seed's classic buy is anonymous: the order belongs to nobody.
        Http.Reply classic = http.post(
                bookstore.frontend(2) + "/buy/" + book,
                "",
                "Idempotency-Key",
                UUID.randomUUID().toString());
        assertThat(classic.status()).as("anonymous classic buy: %s", classic).isEqualTo(201);
        long anonymousId = classic.json().path("orderId").asLong();

        Map<Long, JsonNode> customers = bookstore.orders(bookstore.frontend(1) + "/api/orders", bookstore.customer());
        assertThat(customers).containsKey(mineId).doesNotContainKey(anonymousId);
        assertThat(customers.values())
                .allSatisfy(order -> assertThat(order.path("owner").asString("customer"))
                        .as("owner of %s", order)
                        .isEqualTo("customer"));
        assertThat(bookstore.orders(bookstore.frontend(2) + "/api/orders", bookstore.admin()))
                .as("an admin lists everyone's")
                .containsKeys(mineId, anonymousId);

        Http.Reply notTheirs =
                http.get(bookstore.frontend(1) + "/api/orders/" + anonymousId, "Authorization", bookstore.customer());
        assertThat(notTheirs.status())
                .as("customer reads an order not theirs: %s", notTheirs)
                .isEqualTo(403);
        Http.Reply asAdmin =
                http.get(bookstore.frontend(1) + "/api/orders/" + anonymousId, "Authorization", bookstore.admin());
        assertThat(asAdmin.status()).as("admin reads it: %s", asAdmin).isEqualTo(200);
        Http.Reply noToken = http.get(bookstore.frontend(1) + "/api/orders");
        assertThat(noToken.status()).as("list without a token: %s", noToken).isEqualTo(401);
    }

    @Test
    @Order(20)
    void stateSurvivesARestartOfTheWholeCluster() throws Exception {
        Http.Reply bought = bookstore.buy(bookstore.frontend(1), 3);
        assertThat(bought.status()).as("buy: %s", bought).isEqualTo(201);
        long orderId = bought.json().path("orderId").asLong();
        long stock = bookstore.catalogBook(3).path("stock").asLong();
        String account = Long.toString(ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE));
        assertThat(XmlClient.sendToActive(
                                cluster.exchangeTcpPorts(),
                                "<create><account id=\"" + account + "\" balance=\"5\"/></create>",
                                TAKEOVER)
                        .xml())
                .contains("<created id=\"" + account + "\"/>");

        Credentials credentials = cluster.credentials();
        String tokenBeforeRestart = bookstore.customer();
        cluster = shared.restartWholeCluster();
        bookstore = new Bookstore(cluster, http);

        assertThat(cluster.credentials())
                .as("the demo credentials survive a restart")
                .isEqualTo(credentials);
        Http.Reply order =
                http.get(bookstore.frontend(2) + "/api/orders/" + orderId, "Authorization", bookstore.customer());
        assertThat(order.status()).as("order after restart: %s", order).isEqualTo(200);
        assertThat(order.json().path("status").asString()).isEqualTo("CONFIRMED");
        assertThat(bookstore.catalogBook(3).path("stock").asLong())
                .as("the catalog's stock after the restart")
                .isEqualTo(stock);
        Http.Reply earlier =
                http.get(bookstore.frontend(1) + "/api/orders/" + orderId, "Authorization", tokenBeforeRestart);
        assertThat(earlier.status())
                .as("a token issued before the restart: the signing key is kept in the identity database: %s", earlier)
                .isEqualTo(200);
        Http.Reply reply = http.get(
                bookstore.frontend(1) + "/api/exchange/accounts/" + account, "Authorization", bookstore.admin());
        assertThat(reply.status())
                .as("account %s after restart: %s", account, reply)
                .isEqualTo(200);
    }

    /** A title of this test's own for the security checks, registered by the demo admin on first use. */
    private long securityBook() throws IOException, InterruptedException {
        if (securityBook == 0) {
            securityBook = bookstore.registerBook("Security " + UUID.randomUUID(), "security", "5.00", 100);
        }
        return securityBook;
    }

    private static String basic(String clientId, String secret) {
        return "Basic "
                + Base64.getEncoder().encodeToString((clientId + ":" + secret).getBytes(StandardCharsets.UTF_8));
    }

    private static String local(int port) {
        return "http://127.0.0.1:" + port;
    }
}
