package dev.agora.perf.load;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.util.Timeout;

/**
 * The load generator's HTTP client: Apache HttpClient 5 classic with a connection pool sized for the
 * number of concurrent clients (the fastest client measured on this machine kind, see TOOLCHAIN.md).
 * Automatic retries are off: a failed request must show up as a failure, not be hidden by the client.
 */
public final class HttpDriver implements AutoCloseable {

    /** Set by Agora's services on a response whose request met a repeated or hedged call (common's client). */
    private static final String FAILOVER = "Agora-Failover";

    private final CloseableHttpClient client;

    public HttpDriver(int maxConnections) {
        this(maxConnections, Timeout.ofSeconds(30));
    }

    public HttpDriver(int maxConnections, Timeout responseTimeout) {
        PoolingHttpClientConnectionManager connections = PoolingHttpClientConnectionManagerBuilder.create()
                .setMaxConnTotal(maxConnections)
                .setMaxConnPerRoute(maxConnections)
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.ofSeconds(2))
                        .setSocketTimeout(responseTimeout)
                        .build())
                .build();
        this.client = HttpClients.custom()
                .setConnectionManager(connections)
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setResponseTimeout(responseTimeout)
                        .setConnectionRequestTimeout(Timeout.ofSeconds(60))
                        .build())
                .disableAutomaticRetries()
                .disableCookieManagement()
                .evictIdleConnections(Timeout.of(30, TimeUnit.SECONDS))
                .build();
    }

    public HttpReply get(String url) {
        return execute(new HttpGet(url), Map.of());
    }

    public HttpReply get(String url, Map<String, String> headers) {
        return execute(new HttpGet(url), headers);
    }

    public HttpReply postJson(String url, String json, Map<String, String> headers) {
        HttpPost post = new HttpPost(url);
        post.setEntity(new StringEntity(json, ContentType.APPLICATION_JSON));
        return execute(post, headers);
    }

    private HttpReply execute(HttpUriRequestBase request, Map<String, String> headers) {
        headers.forEach(request::setHeader);
        try {
            return client.execute(request, response -> {
                String body = response.getEntity() == null ? "" : EntityUtils.toString(response.getEntity());
                Header timing = response.getFirstHeader("Server-Timing");
                return new HttpReply(
                        response.getCode(),
                        body,
                        ServerTiming.parse(timing == null ? null : timing.getValue()),
                        failover(response.getHeaders(FAILOVER)),
                        null);
            });
        } catch (IOException e) {
            return HttpReply.failed(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private static String failover(Header[] entries) {
        if (entries.length == 0) return "";
        StringBuilder joined = new StringBuilder();
        for (Header entry : entries) {
            if (!joined.isEmpty()) joined.append(", ");
            joined.append(entry.getValue());
        }
        return joined.toString();
    }

    @Override
    public void close() {
        try {
            client.close();
        } catch (IOException e) {
            // closing a pool of idle local connections cannot fail in a way worth reporting
        }
    }
}
