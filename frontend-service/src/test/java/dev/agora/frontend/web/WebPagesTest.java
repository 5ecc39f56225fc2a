package dev.agora.frontend.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agora.frontend.cluster.BookstoreCluster;
import dev.agora.frontend.cluster.ExchangePair;
import dev.agora.frontend.cluster.Http;
import dev.agora.frontend.cluster.Tokens;
import dev.agora.frontend.identity.Identities;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The pages in a real browser (headless Chromium through Selenium) against the real cluster: catalog and order
 * replicas and an exchange as processes, the cluster's frontend C serving the pages. People sign in with the form; everything the
 * pages show or change goes through the services, so the checks read the services' state, not the page's word.
 */
class WebPagesTest {

    private static final String PASSWORD = "a-long-enough-test-password";
    private static final String SYMBOL = "WEB";

    private static BookstoreCluster cluster;
    private static ExchangePair exchanges;
    private static String base;
    private static Browsers browsers;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(
                Browsers.installed(),
                "Chromium and chromedriver are not installed (.ci/install-chromium.sh installs them)");
        cluster = BookstoreCluster.get();
        // The suite's exchanges (active and standby), shared with ExchangeTakeoverTest; the cluster's frontend C
        // follows the active one. The pages need nothing of a frontend of their own: a desk's live stream ends within a
        // tick or two of its browser leaving, so the desks the tests open leave nothing running on C behind them.
        exchanges = ExchangePair.get();
        ConfigurableApplicationContext frontend = cluster.frontendContext(2);
        base = cluster.frontend(2);
        Identities identities = frontend.getBean(Identities.class);
        identities.ensureUser("web-customer", List.of("customer"), PASSWORD);
        identities.ensureUser("web-publisher", List.of("publisher"), PASSWORD);
        identities.ensureUser("web-trader-a", List.of("trader"), PASSWORD);
        identities.ensureUser("web-trader-b", List.of("trader"), PASSWORD);
        exchanges.awaitServing();
        try (Http http = new Http()) {
            Map<String, String> admin = Tokens.bearer(cluster.tokens().admin());
            String exchangeUrl = exchanges.active().baseUrl() + "/api/exchange";
            assertThat(http.post(
                                    exchangeUrl + "/accounts",
                                    "{\"id\":\"7001\",\"balance\":1000,\"owner\":\"web-trader-a\"}",
                                    admin)
                            .status())
                    .isEqualTo(201);
            assertThat(http.post(
                                    exchangeUrl + "/accounts",
                                    "{\"id\":\"7002\",\"balance\":1000,\"owner\":\"web-trader-b\"}",
                                    admin)
                            .status())
                    .isEqualTo(201);
            assertThat(http.post(
                                    exchangeUrl + "/symbols/" + SYMBOL + "/positions",
                                    "{\"accountId\":\"7001\",\"shares\":100}",
                                    admin)
                            .status())
                    .isEqualTo(201);
        }
        browsers = new Browsers();
    }

    /**
     * A test's browsers are blanked and signed out with it, for the next test to reuse: an open page (the live desk's
     * stream) would keep a Chromium busy for nothing.
     */
    @AfterEach
    void closeBrowsers() {
        if (browsers != null) browsers.close();
    }

    @AfterAll
    static void stop() {
        if (browsers != null) browsers.quit();
    }

    @Test
    void searchOpenABookBuyItAndSeeTheOrder() {
        WebDriver browser = browsers.open();
        signIn(browser, "web-customer");
        browser.get(base + "/");
        browser.findElement(By.id("topic")).sendKeys("distributed systems");
        browser.findElement(By.id("title")).sendKeys("dummies");
        browser.findElement(By.id("search-button")).click();
        await(browser).until(b -> !b.findElements(By.className("book-link")).isEmpty());
        List<WebElement> hits = browser.findElements(By.className("book-link"));
        assertThat(hits).extracting(WebElement::getText).containsExactly("RPCs for Dummies.");

        browser.get(base + "/?topic=distributed+systems");
        Browsers.screenshot(browser, "store-search");
        browser.findElement(By.linkText("RPCs for Dummies.")).click();
        await(browser).until(b -> b.getCurrentUrl().endsWith("/books/2"));
        long stockBefore = cluster.stockAndVersion(2)[0];
        assertThat(text(browser, "book-title")).isEqualTo("RPCs for Dummies.");
        assertThat(text(browser, "book-price")).isEqualTo("$15.50");
        assertThat(text(browser, "book-stock")).isEqualTo(stockBefore + " copies");
        Browsers.screenshot(browser, "book-page");

        WebElement quantity = browser.findElement(By.id("quantity"));
        quantity.clear();
        quantity.sendKeys("2");
        browser.findElement(By.id("buy-button")).click();
        await(browser).until(b -> !b.findElements(By.id("placed-notice")).isEmpty());
        String orderId =
                browser.findElement(By.cssSelector("#placed-notice strong")).getText();
        WebElement row = browser.findElement(By.cssSelector("#orders tr[data-order-id='" + orderId + "']"));
        assertThat(row.getText()).contains("RPCs for Dummies.", "$31.00", "Confirmed");
        assertThat(cluster.stockAndVersion(2)[0]).isEqualTo(stockBefore - 2);
        Browsers.screenshot(browser, "my-orders");
    }

    @Test
    void aBuySentTwiceBuysOnce() {
        WebDriver browser = browsers.open();
        signIn(browser, "web-customer");
        browser.get(base + "/books/4");
        long stockBefore = cluster.stockAndVersion(4)[0];
        int ordersBefore = orderRows(browser);
        browser.get(base + "/books/4");
        // A double click, as the browser sends it: the same form, twice, at once.
        Object statuses = ((JavascriptExecutor) browser)
                .executeAsyncScript(
                        """
                        const done = arguments[arguments.length - 1];
                        const form = document.getElementById('buy-form');
                        const send = () => fetch(form.action, {method: 'POST', body: new URLSearchParams(new FormData(form)), redirect: 'manual'});
                        Promise.all([send(), send()]).then(answers => done(answers.map(a => a.type + ':' + a.status)));
                        """);
        assertThat(statuses.toString()).doesNotContain("error");
        assertThat(orderRows(browser)).isEqualTo(ordersBefore + 1);
        assertThat(cluster.stockAndVersion(4)[0]).isEqualTo(stockBefore - 1);
        // The back button and the form sent again: still the same key, still one order.
        browser.get(base + "/books/4");
        String key = browser.findElement(By.name("idempotencyKey")).getAttribute("value");
        browser.findElement(By.id("buy-button")).click();
        await(browser).until(b -> !b.findElements(By.id("placed-notice")).isEmpty());
        browser.navigate().back();
        ((JavascriptExecutor) browser)
                .executeScript("document.querySelector('[name=idempotencyKey]').value = arguments[0];", key);
        browser.findElement(By.id("buy-button")).click();
        await(browser).until(b -> !b.findElements(By.id("placed-notice")).isEmpty());
        assertThat(orderRows(browser)).isEqualTo(ordersBefore + 2);
        assertThat(cluster.stockAndVersion(4)[0]).isEqualTo(stockBefore - 2);
    }

    @Test
    void anUnknownBookShowsAFriendlyPage() throws Exception {
        WebDriver browser = browsers.open();
        browser.get(base + "/books/987654");
        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("No such book");
        assertThat(text(browser, "message-text")).contains("no book number 987654");
        Browsers.screenshot(browser, "unknown-book");
        browser.get(base + "/books/not-a-number");
        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Not found");
        HttpResponse<String> answer = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(base + "/books/987654"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(404);
        assertThat(answer.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
        assertThat(answer.headers().firstValue("Set-Cookie")).isEmpty();
    }

    @Test
    void aPublisherUploadsAFileAndAReaderDownloadsItByteIdentical() throws Exception {
        byte[] content = new byte[200_000];
        new Random(33).nextBytes(content);
        Path file =
                Files.createDirectories(Path.of("target", "web-upload")).resolve("notes-" + System.nanoTime() + ".bin");
        Files.write(file, content);

        WebDriver publisher = browsers.open();
        signIn(publisher, "web-publisher");
        publisher.get(base + "/publish");
        publisher.findElement(By.id("upload-book")).sendKeys("6");
        publisher
                .findElement(By.id("upload-file"))
                .sendKeys(file.toAbsolutePath().toString());
        publisher.findElement(By.id("upload-button")).click();
        await(publisher)
                .until(b -> !b.findElements(By.id("uploaded-link")).isEmpty()
                        || b.findElement(By.id("upload-status")).getText().startsWith("Not uploaded"));
        assertThat(text(publisher, "upload-status")).startsWith("Uploaded " + file.getFileName());
        assertThat(publisher.findElement(By.id("upload-progress")).getAttribute("value"))
                .isEqualTo("100");
        Browsers.screenshot(publisher, "publish");

        WebDriver reader = browsers.open();
        reader.get(base + "/books/6");
        WebElement link = reader.findElement(By.linkText(file.getFileName().toString()));
        HttpResponse<byte[]> download = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(link.getAttribute("href")))
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray());
        assertThat(download.statusCode()).isEqualTo(200);
        assertThat(download.body()).isEqualTo(content);
    }

    @Test
    void twoTradersCrossAndEachSeesTheExecutionWithoutReloading() {
        WebDriver a = browsers.open();
        WebDriver b = browsers.open();
        signIn(a, "web-trader-a");
        signIn(b, "web-trader-b");
        place(a, "7001", "sell", "10", "5");
        String sellId = newestRecentOrder(a);
        openLiveDesk(a);
        openLiveDesk(b);
        await(b).until(d -> d.findElement(By.id("book-levels")).getText().contains("5"));

        // Trader B crosses from a second window; both desks already open must show the execution by themselves.
        String desk = b.getWindowHandle();
        b.switchTo().newWindow(WindowType.TAB);
        place(b, "7002", "buy", "10", "5");
        String buyId = newestRecentOrder(b);
        b.close();
        b.switchTo().window(desk);

        await(a).until(d -> executionShown(d, sellId));
        await(b).until(d -> d.findElements(By.cssSelector("#accounts tr[data-account='7002']")).stream()
                .anyMatch(row -> row.getText().contains("WEB 10")));
        assertThat(((JavascriptExecutor) a).executeScript("return window.notReloaded === true"))
                .isEqualTo(true);
        assertThat(((JavascriptExecutor) b).executeScript("return window.notReloaded === true"))
                .isEqualTo(true);
        await(a).until(d -> d.findElement(By.cssSelector("#accounts tr[data-account='7001'] .cash"))
                .getText()
                .equals("1050"));
        assertThat(buyId).isNotEqualTo(sellId);
        Browsers.screenshot(a, "trading-desk");
    }

    private static boolean executionShown(WebDriver desk, String orderId) {
        return desk.findElements(By.cssSelector("#recent-orders tr[data-order-id='" + orderId + "']")).stream()
                .anyMatch(
                        row -> row.getText().contains("Filled") && row.getText().contains("10 @ 5"));
    }

    private static void openLiveDesk(WebDriver desk) {
        desk.get(base + "/trade?symbol=" + SYMBOL);
        await(desk).until(d -> "true".equals(d.findElement(By.id("desk")).getAttribute("data-live")));
        ((JavascriptExecutor) desk).executeScript("window.notReloaded = true;");
    }

    private static void place(WebDriver desk, String account, String side, String shares, String limit) {
        desk.get(base + "/trade?symbol=" + SYMBOL);
        desk.findElement(By.cssSelector("#order-account option[value='" + account + "']"))
                .click();
        desk.findElement(By.id("side-" + side)).click();
        desk.findElement(By.id("order-shares")).sendKeys(shares);
        desk.findElement(By.id("order-limit")).sendKeys(limit);
        desk.findElement(By.id("place-order")).click();
        await(desk)
                .until(d -> !d.findElements(By.id("done")).isEmpty()
                        || !d.findElements(By.id("failed")).isEmpty());
        assertThat(desk.findElements(By.id("failed"))).isEmpty();
    }

    private static int orderRows(WebDriver browser) {
        browser.get(base + "/orders");
        return browser.findElements(By.cssSelector("#orders tbody tr")).size();
    }

    private static void signIn(WebDriver browser, String user) {
        browser.get(base + "/login");
        browser.findElement(By.id("username")).sendKeys(user);
        browser.findElement(By.id("password")).sendKeys(PASSWORD);
        browser.findElement(By.id("sign-in-button")).click();
        await(browser).until(b -> !b.getCurrentUrl().contains("/login"));
        assertThat(browser.findElement(By.className("who")).getText()).contains(user);
    }

    private static String text(WebDriver browser, String id) {
        return browser.findElement(By.id(id)).getText();
    }

    /** Up to 30 s, looking every 50 ms: Selenium's default look every half second adds its wait to every step. */
    /**
     * A wait that polls often and reads again when a live page redrew what it was reading: the desk's stream replaces
     * whole tables, so an element found may be gone before its text is read.
     */
    private static WebDriverWait await(WebDriver browser) {
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        wait.pollingEvery(Duration.ofMillis(50));
        wait.ignoring(StaleElementReferenceException.class);
        return wait;
    }

    /**
     * The id of the newest order in the desk's recent orders. The page's live stream redraws that table right after
     * the page loads (its first event always carries the fragment), so a row found may be replaced before it is read.
     */
    private static String newestRecentOrder(WebDriver desk) {
        return await(desk).until(d -> d.findElement(By.cssSelector("#recent-orders tbody tr"))
                .getAttribute("data-order-id"));
    }
}
