package dev.agora.frontend.identity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.frontend.FrontendApplication;
import dev.agora.local.cluster.FreePorts;
import dev.agora.local.cluster.LocalProfile;
import dev.agora.local.postgres.PostgresServer;
import dev.agora.local.postgres.SharedPostgres;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Sign-in attempts back off per account, from any address: after the free failures an account's attempts wait,
 * refused with 429 before the secret is checked (a right password included), while other accounts sign in; the wait
 * doubles with each further failure and a success forgets the failures. On a real frontend with three free failures
 * and a first wait of two seconds; its limits per address are off, so only the backoff answers.
 */
class SignInBackoffTest {

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\"\\s+value=\"([^\"]+)\"");
    private static final String PASSWORD = "a-long-enough-backoff-password";
    private static final String SECRET = "a-long-enough-backoff-client-secret";

    private static ConfigurableApplicationContext frontend;
    private static String base;
    private final HttpClient client = HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NEVER)
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    @BeforeAll
    static void start() {
        PostgresServer postgres = SharedPostgres.get();
        String run = Long.toString(System.currentTimeMillis() % 1_000_000, 36);
        frontend = new SpringApplicationBuilder(FrontendApplication.class)
                .run(
                        "--spring.profiles.active=" + LocalProfile.NAME,
                        "--spring.datasource.url=" + postgres.jdbcUrl("fe_backoff_" + run),
                        "--spring.datasource.username=" + postgres.username(),
                        "--spring.datasource.password=" + postgres.password(),
                        "--server.port=0",
                        "--server.address=127.0.0.1",
                        "--agora.instances.catalog-service=" + FreePorts.url(FreePorts.next()),
                        "--agora.instances.order-service=" + FreePorts.url(FreePorts.next()),
                        "--agora.instances.exchange-service=" + FreePorts.url(FreePorts.next()),
                        "--agora.cache.enabled=false",
                        "--agora.limits.rates-enabled=false",
                        "--agora.identity.sign-in-backoff.enabled=true",
                        "--agora.identity.sign-in-backoff.free-failures=3",
                        "--agora.identity.sign-in-backoff.first-wait=2s",
                        "--agora.identity.sign-in-backoff.max-wait=1m",
                        "--spring.jmx.enabled=false");
        base = "http://127.0.0.1:"
                + ((WebServerApplicationContext) frontend).getWebServer().getPort();
        Identities identities = frontend.getBean(Identities.class);
        for (String person : List.of("backoff-person", "backoff-neighbour", "backoff-program")) {
            identities.ensureUser(person, List.of("customer"), PASSWORD);
        }
        identities.ensureProgramClient("backoff-client", SECRET, "backoff-program");
    }

    @AfterAll
    static void stop() {
        if (frontend != null) frontend.close();
    }

    @Test
    void anAccountsAttemptsWaitAfterItsFreeFailuresWhileOthersSignIn() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertThat(signIn("backoff-person", "wrong-" + i).headers().firstValue("Location"))
                    .as("failure %d", i + 1)
                    .hasValueSatisfying(to -> assertThat(to).contains("/login?error"));
        }

        HttpResponse<String> waiting = signIn("backoff-person", PASSWORD);
        assertThat(waiting.statusCode())
                .as("the right password, during the wait")
                .isEqualTo(429);
        assertThat(waiting.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(waiting.headers().firstValue("Retry-After"))
                .hasValueSatisfying(
                        seconds -> assertThat(Integer.parseInt(seconds)).isBetween(1, 2));
        assertThat(waiting.headers().allValues("Set-Cookie")).noneMatch(cookie -> cookie.startsWith("AGORA_SESSION"));
        assertThat(signIn("BACKOFF-Person", PASSWORD).statusCode())
                .as("the same account in other letters")
                .isEqualTo(429);
        assertThat(signedIn(signIn("backoff-neighbour", PASSWORD)))
                .as("another account from the same address")
                .isTrue();

        Thread.sleep(2_100);
        assertThat(signedIn(signIn("backoff-person", "still-wrong"))).isFalse();
        HttpResponse<String> longer = signIn("backoff-person", PASSWORD);
        assertThat(longer.statusCode())
                .as("a failure after the wait doubles it")
                .isEqualTo(429);
        assertThat(longer.headers().firstValue("Retry-After"))
                .hasValueSatisfying(
                        seconds -> assertThat(Integer.parseInt(seconds)).isBetween(3, 4));

        Thread.sleep(4_100);
        assertThat(signedIn(signIn("backoff-person", PASSWORD)))
                .as("after the wait")
                .isTrue();
        assertThat(signIn("backoff-person", "wrong-again").statusCode())
                .as("a success forgot the failures")
                .isEqualTo(302);
    }

    @Test
    void aClientsTokenRequestsWaitAfterItsFreeFailures() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertThat(token("backoff-client", "wrong-secret-" + i).statusCode())
                    .as("failure %d", i + 1)
                    .isEqualTo(401);
        }
        HttpResponse<String> waiting = token("backoff-client", SECRET);
        assertThat(waiting.statusCode()).isEqualTo(429);
        assertThat(waiting.headers().firstValue("Retry-After")).isPresent();

        Thread.sleep(2_100);
        assertThat(token("backoff-client", SECRET).statusCode()).isEqualTo(200);
    }

    private boolean signedIn(HttpResponse<String> answer) {
        return answer.statusCode() == 302
                && !answer.headers().firstValue("Location").orElse("").contains("/login");
    }

    /** The sign-in page (its CSRF cookie and token), then the form posted with them. */
    private HttpResponse<String> signIn(String user, String password) throws Exception {
        HttpResponse<String> page = client.send(
                HttpRequest.newBuilder(URI.create(base + "/login")).build(), HttpResponse.BodyHandlers.ofString());
        Matcher csrf = CSRF.matcher(page.body());
        assertThat(csrf.find()).as("the sign-in form's CSRF token").isTrue();
        List<String> cookies = new ArrayList<>();
        for (String cookie : page.headers().allValues("Set-Cookie")) cookies.add(cookie.split(";", 2)[0]);
        HttpRequest.Builder post = HttpRequest.newBuilder(URI.create(base + "/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("username=" + encode(user) + "&password=" + encode(password)
                        + "&_csrf=" + encode(csrf.group(1))));
        if (!cookies.isEmpty()) post.header("Cookie", String.join("; ", cookies));
        return client.send(post.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> token(String clientId, String secret) throws Exception {
        String basic = Base64.getEncoder().encodeToString((clientId + ":" + secret).getBytes(StandardCharsets.UTF_8));
        return client.send(
                HttpRequest.newBuilder(URI.create(base + "/oauth2/token"))
                        .timeout(Duration.ofSeconds(30))
                        .header("Authorization", "Basic " + basic)
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
