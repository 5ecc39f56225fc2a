package dev.agora.common.security.testing;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A person signing in on a frontend's web pages as a browser does (for the frontend's and the launcher's tests), over plain HTTP: the sign-in page (its
 * CSRF token, and the cookies it came with), the form posted with name and password, and the session cookie it
 * answers with. No redirect is
 * followed and no cookie kept by the client, so a test sees and chooses every cookie it sends.
 */
public final class FormSignIn {

    public static final String COOKIE = "AGORA_SESSION";
    private static final Pattern CSRF =
            Pattern.compile("name=\"_csrf\"\\s+value=\"([^\"]+)\"|value=\"([^\"]+)\"\\s+name=\"_csrf\"");
    private static final Pattern SESSION = Pattern.compile(COOKIE + "=([^;]+)");

    private final HttpClient client = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER)
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    /** The session cookie's value after signing in as {@code user} at {@code base}; empty when the sign-in failed. */
    public Optional<String> signIn(String base, String user, String password) throws IOException, InterruptedException {
        HttpResponse<String> page = get(base + "/login", null);
        if (page.statusCode() != 200) throw new IllegalStateException("GET /login: " + page.statusCode());
        // The cookies the form came with (its CSRF token's, where the frontend keeps it in a cookie), sent back.
        List<String> cookies = page.headers().allValues("Set-Cookie").stream()
                .map(cookie -> cookie.split(";", 2)[0])
                .filter(cookie -> !cookie.endsWith("="))
                .toList();
        Matcher csrf = CSRF.matcher(page.body());
        if (!csrf.find()) throw new IllegalStateException("no CSRF token in the sign-in page");
        String token = csrf.group(1) != null ? csrf.group(1) : csrf.group(2);
        String form = "username=" + encode(user) + "&password=" + encode(password) + "&_csrf=" + encode(token);
        HttpRequest.Builder post = HttpRequest.newBuilder(URI.create(base + "/login"))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form));
        if (!cookies.isEmpty()) post.header("Cookie", String.join("; ", cookies));
        HttpResponse<String> posted = client.send(post.build(), HttpResponse.BodyHandlers.ofString());
        String location = posted.headers().firstValue("Location").orElse("");
        if (posted.statusCode() != 302 || location.contains("/login")) return Optional.empty();
        return session(posted);
    }

    /** A GET with the session cookie {@code session} (null: none), redirects not followed. */
    public HttpResponse<String> get(String url, String session) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(30))
                .GET();
        if (session != null) request.header("Cookie", COOKIE + "=" + session);
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A form POST with the session cookie and the CSRF token of the page at {@code pageUrl}. */
    public HttpResponse<String> postWithCsrf(String pageUrl, String url, String session)
            throws IOException, InterruptedException {
        HttpResponse<String> page = get(pageUrl, session);
        Matcher csrf = CSRF.matcher(page.body());
        if (!csrf.find()) throw new IllegalStateException("no CSRF token in " + pageUrl + ": " + page.statusCode());
        String token = csrf.group(1) != null ? csrf.group(1) : csrf.group(2);
        return client.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(30))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .header("Cookie", COOKIE + "=" + session)
                        .POST(HttpRequest.BodyPublishers.ofString("_csrf=" + encode(token)))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    public static Optional<String> session(HttpResponse<?> response) {
        for (String cookie : response.headers().allValues("Set-Cookie")) {
            Matcher value = SESSION.matcher(cookie);
            if (value.find() && !value.group(1).isEmpty()) return Optional.of(value.group(1));
        }
        return Optional.empty();
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
