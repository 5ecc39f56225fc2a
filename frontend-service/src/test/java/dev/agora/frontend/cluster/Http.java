package dev.agora.frontend.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.util.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A test client: pooled Apache HttpClient, generous timeouts (a frozen replica must not fail the client). */
public final class Http implements AutoCloseable {

    public static final JsonMapper JSON = JsonMapper.builder().build();

    public record Response(int status, Map<String, String> headers, String body) {
        public JsonNode json() {
            return JSON.readTree(body);
        }

        public String header(String name) {
            return headers.get(name.toLowerCase());
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }

    private final CloseableHttpClient client = HttpClients.custom()
            .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                    .setMaxConnPerRoute(200)
                    .setMaxConnTotal(400)
                    .build())
            .setDefaultRequestConfig(RequestConfig.custom()
                    .setResponseTimeout(Timeout.ofSeconds(30))
                    .build())
            .disableAutomaticRetries()
            .build();

    public Response get(String url) {
        return send(new HttpUriRequestBase("GET", java.net.URI.create(url)), null, Map.of());
    }

    public Response get(String url, Map<String, String> headers) {
        return send(new HttpUriRequestBase("GET", java.net.URI.create(url)), null, headers);
    }

    public Response post(String url, String json) {
        return post(url, json, Map.of());
    }

    public Response post(String url, String json, Map<String, String> headers) {
        return send(new HttpUriRequestBase("POST", java.net.URI.create(url)), json, headers);
    }

    public Response put(String url, String json, Map<String, String> headers) {
        return send(new HttpUriRequestBase("PUT", java.net.URI.create(url)), json, headers);
    }

    private Response send(HttpUriRequestBase request, String json, Map<String, String> headers) {
        headers.forEach(request::setHeader);
        if (json != null) request.setEntity(new StringEntity(json, ContentType.APPLICATION_JSON));
        try {
            return client.execute(request, response -> {
                Map<String, String> found = new LinkedHashMap<>();
                for (Header header : response.getHeaders())
                    found.put(header.getName().toLowerCase(), header.getValue());
                String body = response.getEntity() == null
                        ? ""
                        : EntityUtils.toString(response.getEntity(), StandardCharsets.UTF_8);
                return new Response(response.getCode(), found, body);
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws IOException {
        client.close();
    }
}
