package dev.agora.frontend.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.security.testing.FormSignIn;
import dev.agora.frontend.cluster.Books;
import dev.agora.frontend.cluster.BookstoreCluster;
import dev.agora.frontend.cluster.Http;
import dev.agora.frontend.identity.Identities;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Who gets a session, and what a page carries, over plain HTTP against the test cluster's frontends: a reader without
 * a session cookie reads the store and a book's page without a session being made (no cookie set, no row in the
 * shared sessions table) and without a CSRF token, but with the pages' security headers; a signed-in customer's book
 * page carries the CSRF token and idempotency key of its buy form, a buy without the token changes nothing, and one
 * with it buys.
 */
class PageSessionsTest {

    private static final String PASSWORD = "a-long-enough-page-password";
    private static final String CUSTOMER = "page-session-customer";
    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\"\\s+value=\"([^\"]+)\"");
    private static final Pattern IDEMPOTENCY_KEY = Pattern.compile("name=\"idempotencyKey\"\\s+value=\"([^\"]+)\"");

    private static BookstoreCluster cluster;
    private static JdbcTemplate identityDatabase;
    private final FormSignIn web = new FormSignIn();
    private final HttpClient client = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER)
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    @BeforeAll
    static void start() {
        cluster = BookstoreCluster.get();
        cluster.frontendContext(0).getBean(Identities.class).ensureUser(CUSTOMER, List.of("customer"), PASSWORD);
        identityDatabase = new JdbcTemplate(cluster.frontendContext(0).getBean(DataSource.class));
    }

    @Test
    void aReaderWithoutASessionReadsTheStoreAndABookWithNoSessionMadeAndNoToken() throws Exception {
        long book;
        try (Http http = new Http()) {
            book = Books.register(http, cluster, "Sessionless Reading", 5);
        }
        int sessionsBefore = sessions();

        for (String path : List.of("/books/" + book, "/", "/?topic=frontend%20tests", "/css/agora.css")) {
            for (int frontend : new int[] {0, 2}) {
                HttpResponse<String> page = web.get(cluster.frontend(frontend) + path, null);
                assertThat(page.statusCode())
                        .as("%s on frontend %d", path, frontend)
                        .isEqualTo(200);
                assertThat(page.headers().allValues("Set-Cookie"))
                        .as("%s on frontend %d sets no cookie", path, frontend)
                        .isEmpty();
                assertThat(page.body()).as(path).doesNotContain("_csrf");
                assertThat(page.headers().firstValue("Content-Security-Policy"))
                        .as(path)
                        .hasValueSatisfying(csp -> assertThat(csp).contains("frame-ancestors 'none'"));
                assertThat(page.headers().firstValue("Referrer-Policy")).hasValue("same-origin");
                assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
            }
        }
        HttpResponse<String> bookPage = web.get(cluster.frontend(0) + "/books/" + book, null);
        assertThat(bookPage.body()).contains("Sessionless Reading").contains("id=\"sign-in\"");
        assertThat(bookPage.body())
                .as("no buy form for a reader who is not signed in")
                .doesNotContain("buy-form");
        HttpResponse<String> unknown = web.get(cluster.frontend(0) + "/books/999999999", null);
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.headers().allValues("Set-Cookie")).isEmpty();

        assertThat(sessions()).as("no session row made by anonymous reads").isLessThanOrEqualTo(sessionsBefore);
    }

    /**
     * The pages anyone may reach without a session, any number of times, on every frontend: the sign-in page (its
     * form carries a CSRF token all the same), pages that need signing in, the store, a book, a page that does not
     * exist, a failed sign-in. None of them leaves a session row or sets a session cookie; signing in still works.
     */
    @Test
    void anonymousVisitsOfEveryKindOfPageLeaveTheSessionTableAsItWas() throws Exception {
        int sessionsBefore = sessions();
        List<String> paths = List.of(
                "/login",
                "/login?error",
                "/orders",
                "/publish",
                "/trade",
                "/trade/events",
                "/logout",
                "/",
                "/books/1",
                "/books/999999999",
                "/css/agora.css");
        for (int round = 0; round < 5; round++) {
            for (String path : paths) {
                for (int frontend = 0; frontend < 3; frontend++) {
                    HttpResponse<String> page = web.get(cluster.frontend(frontend) + path, null);
                    assertThat(page.statusCode())
                            .as("%s on frontend %d", path, frontend)
                            .isLessThan(500);
                    assertThat(FormSignIn.session(page))
                            .as("%s on frontend %d sets a session cookie", path, frontend)
                            .isEmpty();
                }
            }
        }
        HttpResponse<String> signInPage = web.get(cluster.frontend(0) + "/login", null);
        assertThat(signInPage.body()).as("the sign-in form's CSRF token").containsPattern(CSRF);
        assertThat(web.signIn(cluster.frontend(1), CUSTOMER, "not-the-password"))
                .as("a failed sign-in")
                .isEmpty();

        assertThat(sessions()).as("session rows after anonymous visits").isLessThanOrEqualTo(sessionsBefore);
        assertThat(web.signIn(cluster.frontend(2), CUSTOMER, PASSWORD))
                .as("signing in")
                .isPresent();
    }

    @Test
    void withoutASessionNothingButReadingIsOpen() throws Exception {
        HttpResponse<String> buy = post(cluster.frontend(0) + "/books/1/buy", "quantity=1&idempotencyKey=k", null);
        assertRefused(buy, "a buy without a session or its CSRF token");
        HttpResponse<String> orders = web.get(cluster.frontend(0) + "/orders", null);
        assertThat(orders.statusCode()).isEqualTo(302);
        assertThat(orders.headers().firstValue("Location"))
                .hasValueSatisfying(to -> assertThat(to).endsWith("/login"));
        HttpResponse<String> publish = client.send(
                HttpRequest.newBuilder(URI.create(cluster.frontend(0) + "/publish"))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(publish.statusCode()).as("publishing needs signing in").isEqualTo(302);
    }

    @Test
    void aSignedInCustomersBookPageCarriesTheCsrfTokenAndBuysOnlyWithIt() throws Exception {
        Books.assumeOrders(cluster);
        long book;
        try (Http http = new Http()) {
            book = Books.register(http, cluster, "Signed In Reading", 5);
        }
        String session = web.signIn(cluster.frontend(1), CUSTOMER, PASSWORD).orElseThrow();
        String bookUrl = cluster.frontend(1) + "/books/" + book;

        HttpResponse<String> page = web.get(bookUrl, session);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("Signed in as <strong>" + CUSTOMER).contains("id=\"buy-form\"");
        String csrf = found(CSRF, page.body(), "the buy form's CSRF token");
        String key = found(IDEMPOTENCY_KEY, page.body(), "the buy form's idempotency key");
        assertThat(web.get(bookUrl, session).body())
                .as("a new idempotency key each time the page is drawn")
                .doesNotContain(key);

        String form = "quantity=2&idempotencyKey=" + encode(key);
        HttpResponse<String> forged = post(bookUrl + "/buy", form, session);
        assertRefused(forged, "a customer's buy without the CSRF token");
        try (Http http = new Http()) {
            assertThat(Books.stockSeenBy(http, cluster.frontend(1), book))
                    .as("the refused buy changed nothing")
                    .isEqualTo(5);
        }

        HttpResponse<String> bought = post(bookUrl + "/buy", form + "&_csrf=" + encode(csrf), session);
        assertThat(bought.statusCode()).as(bought.body()).isEqualTo(302);
        assertThat(bought.headers().firstValue("Location"))
                .hasValueSatisfying(to -> assertThat(to).contains("/orders?placed="));
        HttpResponse<String> again = post(bookUrl + "/buy", form + "&_csrf=" + encode(csrf), session);
        assertThat(again.statusCode()).as("the same form sent again").isEqualTo(302);
        assertThat(again.headers().firstValue("Location"))
                .isEqualTo(bought.headers().firstValue("Location"));
        try (Http http = new Http()) {
            assertThat(Books.stockSeenBy(http, cluster.frontend(1), book))
                    .as("one buy of two copies")
                    .isEqualTo(3);
        }
    }

    @Test
    void aStaleSessionCookieStillReadsThePageAsAnonymous() throws Exception {
        HttpResponse<String> page = web.get(cluster.frontend(0) + "/", "bm90LWEtc2Vzc2lvbg");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("id=\"sign-in\"").doesNotContain("Signed in as");
    }

    /** Not bought: sent to sign in (again) or refused, never on to the orders a buy leads to. */
    private static void assertRefused(HttpResponse<String> response, String what) {
        assertThat(response.statusCode()).as(what).isIn(302, 403);
        assertThat(response.headers().firstValue("Location").orElse(""))
                .as(what)
                .doesNotContain("/orders");
    }

    private HttpResponse<String> post(String url, String form, String session) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form));
        if (session != null) request.header("Cookie", FormSignIn.COOKIE + "=" + session);
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private int sessions() {
        return identityDatabase.queryForObject("SELECT count(*) FROM spring_session", Integer.class);
    }

    private static String found(Pattern pattern, String body, String what) {
        Matcher matcher = pattern.matcher(body);
        assertThat(matcher.find()).as(what).isTrue();
        return matcher.group(1);
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
