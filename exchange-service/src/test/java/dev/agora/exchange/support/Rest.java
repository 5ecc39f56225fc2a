package dev.agora.exchange.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Real HTTP calls to the exchange's JSON API, as one caller: with a bearer token, or none when it is null. */
public final class Rest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String base;
    private final String token;

    Rest(String base, String token) {
        this.base = base;
        this.token = token;
    }

    /** A reply: its status, content type and body (as JSON when it is JSON, else null). */
    public record Reply(int status, String contentType, String text, String wwwAuthenticate) {

        public JsonNode body() {
            return text.isEmpty() || !contentType.contains("json") ? null : JSON.readTree(text);
        }

        public boolean isProblem() {
            return contentType.startsWith("application/problem+json");
        }
    }

    public Reply get(String path) {
        return call("GET", path, null);
    }

    public Reply post(String path, String json) {
        return call("POST", path, json);
    }

    public Reply delete(String path) {
        return call("DELETE", path, null);
    }

    public Reply call(String method, String path, String json) {
        return call(method, path, json, java.util.Map.of());
    }

    /** {@code POST} with these extra request headers. */
    public Reply post(String path, String json, java.util.Map<String, String> headers) {
        return call("POST", path, json, headers);
    }

    public Reply call(String method, String path, String json, java.util.Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path));
        headers.forEach(request::header);
        if (token != null) request.header("Authorization", "Bearer " + token);
        if (json == null) request.method(method, HttpRequest.BodyPublishers.noBody());
        else
            request.method(method, HttpRequest.BodyPublishers.ofString(json))
                    .header("Content-Type", "application/json");
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(
                    response.statusCode(),
                    response.headers().firstValue("Content-Type").orElse(""),
                    response.body(),
                    response.headers().firstValue("WWW-Authenticate").orElse(null));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Sends {@code method target} exactly as written, over a plain socket (an HTTP client may normalize or
     * re-encode a path; the attacks on the firewall are in the bytes), and returns the status line's code and the
     * rest of the reply.
     */
    public Reply raw(String method, String target, String json) {
        URI uri = URI.create(base);
        StringBuilder request = new StringBuilder()
                .append(method)
                .append(' ')
                .append(target)
                .append(" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
        if (token != null)
            request.append("Authorization: Bearer ").append(token).append("\r\n");
        byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
        if (json != null) request.append("Content-Type: application/json\r\n");
        request.append("Content-Length: ").append(body.length).append("\r\n\r\n");
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().write(body);
            InputStream in = socket.getInputStream();
            String reply = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            int status = Integer.parseInt(reply.substring(9, 12));
            String contentType = header(reply, "Content-Type");
            int bodyStart = reply.indexOf("\r\n\r\n");
            return new Reply(
                    status,
                    contentType == null ? "" : contentType,
                    bodyStart < 0 ? "" : reply.substring(bodyStart + 4),
                    header(reply, "WWW-Authenticate"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String header(String reply, String name) {
        int end = reply.indexOf("\r\n\r\n");
        for (String line : reply.substring(0, end < 0 ? reply.length() : end).split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
                return line.substring(colon + 1).strip();
            }
        }
        return null;
    }
}
