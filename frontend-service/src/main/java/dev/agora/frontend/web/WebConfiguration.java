package dev.agora.frontend.web;

import dev.agora.frontend.identity.PeopleTokens;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.httpcomponents.hc5.PoolingHttpClientConnectionManagerMetricsBinder;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.Timeout;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.provisioning.JdbcUserDetailsManager;
import org.springframework.session.jdbc.PostgreSqlJdbcIndexedSessionRepositoryCustomizer;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.json.JsonMapper;

@Configuration(proxyBeanMethods = false)
class WebConfiguration {

    @Bean
    WebSettings webSettings() {
        return new WebSettings();
    }

    /** Calls the pages make at once: half of Tomcat's 200 request threads (server.tomcat.threads.max). */
    static final int PAGE_CALLS = 100;

    static final Duration PAGE_CALL_WAIT = Duration.ofSeconds(1);

    /** This frontend's address for its own pages, set when the server listens (port 0 in tests). */
    private final AtomicReference<URI> ownAddress = new AtomicReference<>();

    /** The pages call the public API of this frontend itself, on loopback. */
    @Bean
    ApplicationListener<WebServerInitializedEvent> pagesLearnTheirAddress(@Value("${server.address:}") String address) {
        return event -> {
            // Not the management server's (a port of its own in deployments).
            if ("management".equals(event.getApplicationContext().getServerNamespace())) return;
            ownAddress.set(PublicApi.loopback(address, event.getWebServer().getPort()));
        };
    }

    /**
     * The web pages' sessions live in the shared database (Spring Session JDBC), not in memory: each is bounded by
     * its timeout ({@code server.servlet.session.timeout}, expired ones deleted by Spring Session's cleanup), and new
     * ones come only from sign-ins (WebSecurityConfiguration), which are rate-limited per address and per account. {@code agora.web.sessions} counts them, one
     * query per scrape.
     */
    @Bean
    MeterBinder webSessionMetrics(JdbcTemplate database) {
        return registry -> Gauge.builder("agora.web.sessions", database, WebConfiguration::sessions)
                .description("Web page sessions kept in the shared database, every frontend's")
                .register(registry);
    }

    private static double sessions(JdbcTemplate database) {
        try {
            Long count = database.queryForObject("SELECT count(*) FROM spring_session", Long.class);
            return count == null ? Double.NaN : count;
        } catch (RuntimeException databaseAway) {
            return Double.NaN;
        }
    }

    @Bean
    SessionTokens sessionTokens(PeopleTokens tokens, JdbcUserDetailsManager users) {
        return new SessionTokens(tokens, users);
    }

    /**
     * Two requests of one person at once (a double click, a page and its live stream) may both add the same session
     * attribute: PostgreSQL's upsert instead of an insert that would fail the second on a duplicate key.
     */
    @Bean
    PostgreSqlJdbcIndexedSessionRepositoryCustomizer sessionAttributesUpserted() {
        return new PostgreSqlJdbcIndexedSessionRepositoryCustomizer();
    }

    /**
     * A pooled Apache client (the fastest RestClient backend measured here, TOOLCHAIN.md), its own pool so that pages
     * never wait behind the tiers' calls. Every call it makes is served by a request thread of this same Tomcat, so
     * at most half of those threads may be pages waiting on it: past {@link #PAGE_CALLS} a page waits
     * {@link #PAGE_CALL_WAIT} for a connection and then gets the "service unavailable" page, instead of every thread
     * waiting on a call that no thread is left to serve. Use and waiters are
     * {@code httpcomponents_httpclient_pool_*{httpclient="public-api"}}.
     */
    @Bean
    PublicApi publicApi(RestClient.Builder builder, JsonMapper json, MeterRegistry meters) {
        var connections = PoolingHttpClientConnectionManagerBuilder.create()
                .setMaxConnTotal(PAGE_CALLS)
                .setMaxConnPerRoute(PAGE_CALLS)
                .build();
        new PoolingHttpClientConnectionManagerMetricsBinder(connections, "public-api").bindTo(meters);
        var http = HttpClients.custom()
                .setConnectionManager(connections)
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setConnectionRequestTimeout(Timeout.of(PAGE_CALL_WAIT))
                        .build())
                .disableAutomaticRetries()
                .disableRedirectHandling()
                .build();
        RestClient client = builder.clone()
                .requestFactory(new HttpComponentsClientHttpRequestFactory(http))
                .build();
        return new PublicApi(client, json, () -> {
            URI address = ownAddress.get();
            if (address == null) throw ApiProblem.unavailable("The frontend is still starting");
            return address;
        });
    }
}
