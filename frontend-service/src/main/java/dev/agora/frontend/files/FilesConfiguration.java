package dev.agora.frontend.files;

import dev.agora.common.security.AccessRules;
import dev.agora.common.security.Roles;
import dev.agora.frontend.book.BookCache;
import dev.agora.frontend.book.BookSideCache;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.httpcomponents.hc5.PoolingHttpClientConnectionManagerMetricsBinder;
import java.util.List;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;

@Configuration(proxyBeanMethods = false)
class FilesConfiguration {

    /**
     * Who may call what (SECURITY.md): searching, listing and downloading book files is open like the catalog's
     * reads, and anonymous reads of them take common's stateless chain; registering a file needs a publisher or
     * admin. Uploads, through the API or the publisher's page, stream to a catalog node under its limit, not the body
     * cap of JSON requests.
     */
    @Bean
    AccessRules fileRules() {
        List<String> reads = List.of("/api/files", "/api/books/*/files", "/api/books/*/files/*");
        return new AccessRules.Declared(
                reads,
                List.of("/api/books/*/files/*", "/publish/books/*/files/*"),
                requests -> requests.requestMatchers(HttpMethod.GET, reads.toArray(String[]::new))
                        .permitAll()
                        .requestMatchers(HttpMethod.HEAD, "/api/books/*/files/*")
                        .permitAll()
                        .requestMatchers(HttpMethod.PUT, "/api/books/*/files/*")
                        .hasAnyRole(Roles.ADMIN, Roles.PUBLISHER));
    }

    /**
     * A client of its own for streams: no automatic retries or redirects, no decompression (bytes pass as sent). Its
     * pool ({@code FilesSettings#maxConnections} per node) bounds the transfers at once; its use and the transfers
     * waiting are {@code httpcomponents_httpclient_pool_*{httpclient="files"}}, and a transfer that waited
     * {@code FilesSettings#poolWait} in vain is refused with 503 ({@link FileController}).
     */
    @Bean(destroyMethod = "close")
    CloseableHttpClient fileTransferClient(FilesSettings settings, MeterRegistry meters) {
        var connections = PoolingHttpClientConnectionManagerBuilder.create()
                .setMaxConnPerRoute(settings.maxConnections())
                .setMaxConnTotal(settings.maxConnections() * 8)
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(settings.connectTimeout()))
                        .setSocketTimeout(Timeout.of(settings.readTimeout()))
                        .setValidateAfterInactivity(TimeValue.ofSeconds(1))
                        .build())
                .build();
        new PoolingHttpClientConnectionManagerMetricsBinder(connections, "files").bindTo(meters);
        return HttpClients.custom()
                .setConnectionManager(connections)
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setConnectionRequestTimeout(Timeout.of(settings.poolWait()))
                        .setResponseTimeout(Timeout.of(settings.readTimeout()))
                        .setRedirectsEnabled(false)
                        .build())
                .disableAutomaticRetries()
                .disableRedirectHandling()
                .disableContentCompression()
                .disableCookieManagement()
                .evictIdleConnections(TimeValue.ofSeconds(10))
                .build();
    }

    /** A book's files, cached beside the book (and invalidated with it). */
    @Bean
    BookSideCache<List<FileView>> bookFilesCache(BookCache books) {
        return books.side("books.files");
    }

    /** Constants, not settings: {@link FilesSettings}. */
    @Bean
    FilesSettings filesSettings() {
        return new FilesSettings();
    }

    @Bean
    SmallFiles smallFiles(FilesSettings settings, BookCache books) {
        return new SmallFiles(settings.memory(), books);
    }

    @Bean
    ListingFiles listingFiles(CatalogNodes nodes, BookSideCache<List<FileView>> bookFilesCache) {
        return new ListingFiles(nodes, bookFilesCache);
    }

    @Bean
    Uploading uploading(CloseableHttpClient fileTransferClient, CatalogNodes nodes) {
        return new Uploading(fileTransferClient, nodes);
    }

    @Bean
    Downloading downloading(CloseableHttpClient fileTransferClient, CatalogNodes nodes) {
        return new Downloading(fileTransferClient, nodes, new FileHolders(FileHolders.MAX_NAMES));
    }
}
