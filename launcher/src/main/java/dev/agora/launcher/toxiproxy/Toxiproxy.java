package dev.agora.launcher.toxiproxy;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A client of Toxiproxy's HTTP API (v2): proxies (a listening port on 127.0.0.1 forwarding to an upstream address)
 * and the toxics on them. Eight calls of a small JSON API; toxiproxy-java would add a dependency for the same.
 */
public final class Toxiproxy {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final URI base;
    private final HttpClient http;

    /** @param base the API's address, e.g. {@code http://127.0.0.1:8474} */
    public Toxiproxy(URI base) {
        this.base = base;
        this.http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    }

    public URI base() {
        return base;
    }

    /** The server's version; throws when it does not answer. */
    public String version() {
        return call("GET", "/version", null, 200);
    }

    /** Creates a proxy listening on 127.0.0.1:{@code listenPort} and forwarding to {@code upstream} (host:port). */
    public void createProxy(String name, int listenPort, String upstream) {
        Map<String, Object> proxy = new LinkedHashMap<>();
        proxy.put("name", name);
        proxy.put("listen", "127.0.0.1:" + listenPort);
        proxy.put("upstream", upstream);
        proxy.put("enabled", true);
        call("POST", "/proxies", proxy, 201);
    }

    /**
     * Enables or disables a proxy. Disabling closes its connections and stops it listening (callers get refused
     * connections); enabling listens again.
     */
    public void setEnabled(String proxy, boolean enabled) {
        call("PATCH", "/proxies/" + encode(proxy), Map.of("enabled", enabled), 200);
    }

    public void deleteProxy(String proxy) {
        call("DELETE", "/proxies/" + encode(proxy), null, 204);
    }

    public void addToxic(String proxy, Toxic toxic) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", toxic.name());
        body.put("type", toxic.type());
        body.put("stream", toxic.stream());
        body.put("toxicity", toxic.toxicity());
        body.put("attributes", toxic.attributes());
        call("POST", "/proxies/" + encode(proxy) + "/toxics", body, 200);
    }

    public void removeToxic(String proxy, String toxic) {
        call("DELETE", "/proxies/" + encode(proxy) + "/toxics/" + encode(toxic), null, 204);
    }

    /** The names of the toxics on a proxy. */
    public List<String> toxics(String proxy) {
        JsonNode list = JSON.readTree(call("GET", "/proxies/" + encode(proxy) + "/toxics", null, 200));
        List<String> names = new ArrayList<>();
        list.forEach(toxic -> names.add(toxic.path("name").asString()));
        return names;
    }

    /** Removes every toxic of every proxy and enables every proxy again. */
    public void reset() {
        call("POST", "/reset", null, 204);
    }

    private String call(String method, String path, Object body, int expected) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(base.resolve(path)).timeout(TIMEOUT).header("Accept", "application/json");
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            // Versions differ in the success codes of some calls (200 or 204): any 2xx is success.
            if (response.statusCode() / 100 != 2) {
                throw new ToxiproxyException(method + " " + path + " answered " + response.statusCode() + ": "
                        + response.body() + " (expected " + expected + ")");
            }
            return response.body();
        } catch (IOException e) {
            throw new ToxiproxyException("Toxiproxy at " + base + " did not answer " + method + " " + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ToxiproxyException("Interrupted calling Toxiproxy", e);
        }
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8);
    }

    /** Toxiproxy refused a call or did not answer. */
    public static final class ToxiproxyException extends RuntimeException {
        ToxiproxyException(String message) {
            super(message);
        }

        ToxiproxyException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
