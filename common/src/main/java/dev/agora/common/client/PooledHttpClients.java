package dev.agora.common.client;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.httpcomponents.hc5.PoolingHttpClientConnectionManagerMetricsBinder;
import java.time.Duration;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * The one way this system builds an HTTP client for calls to other services: Apache HttpClient 5 with a bounded
 * connection pool (the fastest RestClient backend measured here), no retries of its own (a call is repeated on
 * another replica, not on the same connection) and no cookies. The pool's depth (requests waiting for a connection)
 * and size are Micrometer gauges ({@code httpcomponents.httpclient.pool.*}, tagged {@code httpclient=<name>}).
 *
 * <p>The pool is a bound that should never be the one reached: a replica client's bulkhead admits
 * {@code connections} calls and a tenth more hedges, and the pool holds that many per replica. A request that still
 * finds no connection waits at most its timeout and fails; {@link ReplicaClient} counts that in
 * {@code agora.client.pool.timeouts} and the call ends in 503 like any other it could not complete.
 */
public final class PooledHttpClients {

    private PooledHttpClients() {}

    /**
     * @param name the pool's tag in metrics (the service it calls)
     * @param connections connections per replica; a tenth more are allowed for hedges, and a request waits for one
     *     at most {@code timeout}
     * @param timeout the longest a request waits for a connection or for its answer; an attempt may be given less
     *     (what is left of its call) through its request configuration
     */
    public static CloseableHttpClient build(
            String name, Duration connectTimeout, Duration timeout, int connections, MeterRegistry meters) {
        Timeout answer = Timeout.of(timeout);
        PoolingHttpClientConnectionManager pool = PoolingHttpClientConnectionManagerBuilder.create()
                .setMaxConnPerRoute(connections + Math.max(1, connections / 10))
                .setMaxConnTotal((connections + Math.max(1, connections / 10)) * 8)
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(connectTimeout))
                        .setSocketTimeout(answer)
                        // A pooled connection idle this long is checked before reuse: the replica behind it may have
                        // restarted, and a dead connection would count as the replica failing.
                        .setValidateAfterInactivity(TimeValue.ofSeconds(1))
                        .build())
                .build();
        if (meters != null) new PoolingHttpClientConnectionManagerMetricsBinder(pool, name).bindTo(meters);
        return HttpClients.custom()
                .setConnectionManager(pool)
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setResponseTimeout(answer)
                        .setConnectionRequestTimeout(answer)
                        .build())
                .disableAutomaticRetries()
                .disableCookieManagement()
                .evictIdleConnections(TimeValue.ofSeconds(30))
                .build();
    }
}
