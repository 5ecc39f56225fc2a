package dev.agora.frontend.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Headless Chromium from the system's packages ({@code .ci/install-chromium.sh}: Debian's {@code chromium} and
 * {@code chromium-driver}); Selenium is pointed at them, so nothing is downloaded at test time. A browser a test is done
 * with ({@link #close()}) is left on a blank page with no cookies or cache (the pages keep nothing else), and the next
 * test that opens one gets it instead of a new Chromium (a start is seconds of CPU on two cores); {@link #quit()} ends
 * them all.
 */
final class Browsers implements AutoCloseable {

    private static final Path CHROMIUM = firstExisting("/usr/bin/chromium", "/usr/bin/chromium-browser");
    private static final Path DRIVER = firstExisting("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver");

    private final List<WebDriver> open = new ArrayList<>();
    private final Deque<ChromeDriver> idle = new ArrayDeque<>();

    static boolean installed() {
        return CHROMIUM != null && DRIVER != null;
    }

    WebDriver open() {
        ChromeDriver reused = idle.poll();
        if (reused != null) {
            open.add(reused);
            return reused;
        }
        ChromeOptions options = new ChromeOptions()
                .setBinary(CHROMIUM.toFile())
                .addArguments(
                        "--headless=new",
                        "--no-sandbox",
                        "--disable-dev-shm-usage",
                        "--disable-gpu",
                        "--no-first-run",
                        "--lang=en-US",
                        "--window-size=1280,900");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort()
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
        driver.manage().window().setSize(new Dimension(1280, 900));
        open.add(driver);
        return driver;
    }

    /**
     * Saves the page as {@code target/screenshots/<name>.png}, or, with {@code -Dagora.update-screenshots}, as the
     * repository's {@code docs/screenshots/<name>.png} shown in its README. A plain test run leaves the tree clean, so
     * what it measures or commits afterwards is the tree that was tested.
     */
    static void screenshot(WebDriver driver, String name) {
        Path folder = Path.of("target", "screenshots");
        if (Boolean.getBoolean("agora.update-screenshots")) {
            Path root = Path.of("").toAbsolutePath();
            while (root != null && !Files.isRegularFile(root.resolve("mvnw"))) root = root.getParent();
            if (root == null)
                throw new IllegalStateException(
                        "no repository root above " + Path.of("").toAbsolutePath());
            folder = root.resolve("docs").resolve("screenshots");
        }
        try {
            Files.createDirectories(folder);
            Files.write(folder.resolve(name + ".png"), ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path firstExisting(String... candidates) {
        for (String candidate : candidates) {
            Path path = Path.of(candidate);
            if (Files.isExecutable(path)) return path;
        }
        return null;
    }

    /** The browsers opened since the last call are blank, signed out and forgetful again, ready to be reused. */
    @Override
    public void close() {
        for (WebDriver driver : open) {
            ChromeDriver chromium = (ChromeDriver) driver;
            try {
                String first = chromium.getWindowHandles().iterator().next();
                for (String window : chromium.getWindowHandles()) {
                    if (!window.equals(first))
                        chromium.switchTo().window(window).close();
                }
                chromium.switchTo().window(first);
                // A blank page first: a live page's stream ends with it.
                chromium.get("about:blank");
                chromium.executeCdpCommand("Network.clearBrowserCookies", Map.of());
                chromium.executeCdpCommand("Network.clearBrowserCache", Map.of());
                idle.add(chromium);
            } catch (RuntimeException broken) {
                quit(chromium);
            }
        }
        open.clear();
    }

    /** Ends every browser, open or idle. */
    void quit() {
        close();
        for (WebDriver driver : idle) quit(driver);
        idle.clear();
    }

    private static void quit(WebDriver driver) {
        try {
            driver.quit();
        } catch (RuntimeException ignored) {
            // Keep closing the others.
        }
    }
}
