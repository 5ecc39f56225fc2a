package dev.agora.frontend.web;

import java.net.URI;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientResponseException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The pages' way to everything they show and do: the frontend's own public API, called over HTTP as any client
 * calls it, with the signed-in person's token. So a page can do exactly what that person could do with {@code curl},
 * and the catalog, order and exchange services check ownership and roles for pages as for programs. A refusal or a
 * failure comes back as an {@link ApiProblem}.
 */
public final class PublicApi {

    private static final TypeReference<Map<String, Object>> FIELDS = new TypeReference<>() {};

    private final RestClient client;
    private final JsonMapper json;
    private final Supplier<URI> base;

    /** @param base this frontend's own address, known once its server listens */
    PublicApi(RestClient client, JsonMapper json, Supplier<URI> base) {
        this.client = client;
        this.json = json;
        this.base = base;
    }

    /** @param bearer the person's token, or {@code null} for a public read */
    public <T> T get(String path, String bearer, ParameterizedTypeReference<T> type) {
        return call(() ->
                client.get().uri(at(path)).headers(auth(bearer)).retrieve().body(type));
    }

    public <T> T get(String path, String bearer, Class<T> type) {
        return call(() ->
                client.get().uri(at(path)).headers(auth(bearer)).retrieve().body(type));
    }

    public <T> T send(
            HttpMethod method, String path, Object body, String bearer, Map<String, String> headers, Class<T> type) {
        return call(() -> {
            RestClient.RequestBodySpec request =
                    client.method(method).uri(at(path)).headers(auth(bearer)).headers(h -> headers.forEach(h::set));
            if (body != null) request.contentType(MediaType.APPLICATION_JSON).body(body);
            return request.retrieve().body(type);
        });
    }

    /** A path with its variables encoded: {@code path("/api/books/{id}/files", 7)}. */
    public static String path(String template, Object... values) {
        return org.springframework.web.util.UriComponentsBuilder.fromPath(template)
                .buildAndExpand(values)
                .encode()
                .toUriString();
    }

    /** The absolute address of a path of the public API. */
    public URI at(String path) {
        return URI.create(base.get() + path);
    }

    private <T> T call(Supplier<T> call) {
        try {
            return call.get();
        } catch (RestClientResponseException answered) {
            throw problem(answered);
        } catch (ResourceAccessException unreachable) {
            throw ApiProblem.unavailable("The service did not answer: "
                    + unreachable.getMostSpecificCause().getMessage());
        }
    }

    private ApiProblem problem(RestClientResponseException answered) {
        Map<String, Object> fields = Map.of();
        byte[] body = answered.getResponseBodyAsByteArray();
        if (body.length > 0) {
            try {
                fields = json.readValue(body, FIELDS);
            } catch (JacksonException notJson) {
                // The status alone still says what happened.
            }
        }
        Object type = fields.get("type");
        Object detail = fields.get("detail");
        return new ApiProblem(
                answered.getStatusCode().value(),
                type == null ? null : type.toString(),
                detail == null ? answered.getStatusText() : detail.toString(),
                fields);
    }

    private static Consumer<HttpHeaders> auth(String bearer) {
        return headers -> {
            if (bearer != null) headers.setBearerAuth(bearer);
        };
    }

    static URI loopback(String address, int port) {
        String host = address == null || address.isBlank() || address.equals("0.0.0.0") || address.equals("::")
                ? "127.0.0.1"
                : address;
        return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port);
    }
}
