package dev.agora.catalog.files;

import dev.agora.common.security.AccessRules;
import dev.agora.common.security.ServiceTokens;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.httpcomponents.hc5.PoolingHttpClientConnectionManagerMetricsBinder;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpMethod;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(FilesProperties.class)
class FilesConfiguration {

    /**
     * Who may call what (SECURITY.md): a book's files, search and downloads are public, like the books; registering
     * is under {@code /admin/**} (publisher or admin) and copies between nodes under {@code /internal/**} (service
     * tokens), both by the catalog's own rules. Uploads and copies stream under their own limit ({@link
     * FilesProperties#maxSize}), not the body cap of JSON requests.
     */
    @Bean
    AccessRules fileRules() {
        return new AccessRules.Declared(
                List.of("/files"),
                List.of("/admin/books/*/files/*", "/internal/blobs/*"),
                requests -> requests.requestMatchers(HttpMethod.GET, "/files")
                        .permitAll()
                        .requestMatchers(HttpMethod.HEAD, "/books/*/files/*")
                        .permitAll());
    }

    @Bean
    Nodes fileNodes(
            FilesProperties properties,
            Environment environment,
            @Value("${agora.advertised-url:}") String self,
            @Value("${agora.instances.catalog-service:}") String replicas) {
        return new Nodes(
                properties.nodes(replicas),
                self.isBlank() ? "" : FilesProperties.withoutTrailingSlash(self.strip()),
                properties.copies(),
                () -> environment.getRequiredProperty("local.server.port", Integer.class));
    }

    @Bean
    Staging fileStaging(FilesProperties properties) throws IOException {
        return new Staging(properties.directory().resolve("staging"));
    }

    @Bean(destroyMethod = "")
    BlobStore blobStore(FilesProperties properties, S3Clients s3) {
        return switch (properties.store()) {
            case LOCAL -> new LocalBlobStore(properties.directory());
            case S3 ->
                new S3BlobStore(
                        s3.client(),
                        s3.metrics(),
                        properties.s3().bucket(),
                        properties.s3().prefix());
        };
    }

    /** The S3 client, made only when the store is S3 (and closed with the context). */
    @Bean(destroyMethod = "close")
    S3Clients s3Clients(FilesProperties properties, MeterRegistry meters) {
        return new S3Clients(properties.s3(), meters);
    }

    @Bean
    SendingFiles sendingFiles(BlobStore store, MeterRegistry meters) {
        return new SendingFiles(store, meters);
    }

    @Bean
    BlobCopies blobCopies(FilesProperties properties, ServiceTokens tokens, MeterRegistry meters) {
        return new BlobCopies(copyClient(properties, meters), tokens, meters);
    }

    /**
     * Copies go node to node over pooled connections; the read timeout bounds a stalled transfer, not a whole one
     * (a 1 GB copy reads for seconds, each read is short). A copy waits at most {@link #POOL_WAIT} for a pooled
     * connection. The pool's use and waiting copies are {@code httpcomponents_httpclient_pool_*{httpclient="file-copies"}}.
     */
    private static CloseableHttpClient copyClient(FilesProperties properties, MeterRegistry meters) {
        var connections = PoolingHttpClientConnectionManagerBuilder.create()
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(properties.copyConnectTimeout()))
                        .setSocketTimeout(Timeout.of(properties.copyReadTimeout()))
                        .setValidateAfterInactivity(TimeValue.ofSeconds(1))
                        .build())
                .setMaxConnPerRoute(32)
                .setMaxConnTotal(128)
                .build();
        new PoolingHttpClientConnectionManagerMetricsBinder(connections, "file-copies").bindTo(meters);
        return HttpClients.custom()
                .setConnectionManager(connections)
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setConnectionRequestTimeout(Timeout.of(POOL_WAIT))
                        .setResponseTimeout(Timeout.of(properties.copyReadTimeout()))
                        .build())
                .disableAutomaticRetries()
                .disableContentCompression()
                .evictIdleConnections(TimeValue.ofSeconds(30))
                .build();
    }

    /**
     * How long a transfer (a node-to-node copy, an S3 call) waits for a pooled connection before it is refused: long
     * enough to ride out a burst, short enough that a full pool is an answer, not a queue.
     */
    static final Duration POOL_WAIT = Duration.ofSeconds(1);

    /** Connections the S3 client opens at most (the SDK's default); more calls wait {@link #POOL_WAIT}. */
    static final int S3_MAX_CONNECTIONS = 50;

    static final class S3Clients implements AutoCloseable {

        /** Where no AWS_REGION (or profile) names one: S3-compatible stores accept any, AWS's default is this. */
        private static final Region DEFAULT_REGION = Region.US_EAST_1;

        private final FilesProperties.S3 settings;
        private final AwsCredentialsProvider credentials;
        private final Region region;
        private final MeterRegistry meters;
        private S3Client client;
        private S3PoolMetrics metrics;

        /** With the AWS SDK's default credential and region chains. */
        S3Clients(FilesProperties.S3 settings, MeterRegistry meters) {
            this(settings, DefaultCredentialsProvider.builder().build(), defaultRegion(), meters);
        }

        S3Clients(
                FilesProperties.S3 settings, AwsCredentialsProvider credentials, Region region, MeterRegistry meters) {
            this.settings = settings;
            this.credentials = credentials;
            this.region = region;
            this.meters = meters;
        }

        private static Region defaultRegion() {
            try {
                return new DefaultAwsRegionProviderChain().getRegion();
            } catch (SdkClientException none) {
                return DEFAULT_REGION;
            }
        }

        synchronized S3Client client() {
            if (client == null) {
                metrics = new S3PoolMetrics(meters);
                client = open(settings, credentials, region, metrics);
            }
            return client;
        }

        synchronized S3PoolMetrics metrics() {
            client();
            return metrics;
        }

        @Override
        public synchronized void close() {
            if (client != null) client.close();
        }

        private static S3Client open(
                FilesProperties.S3 s3, AwsCredentialsProvider credentials, Region region, S3PoolMetrics metrics) {
            S3ClientBuilder builder = S3Client.builder()
                    .httpClientBuilder(Apache5HttpClient.builder()
                            .maxConnections(S3_MAX_CONNECTIONS)
                            .connectionAcquisitionTimeout(POOL_WAIT))
                    .overrideConfiguration(config -> config.addMetricPublisher(metrics))
                    .region(region)
                    .forcePathStyle(s3.pathStyle())
                    .credentialsProvider(credentials);
            if (s3.endpoint() != null && !s3.endpoint().isBlank()) builder.endpointOverride(URI.create(s3.endpoint()));
            S3Client client = builder.build();
            if (s3.createBucket()) {
                try {
                    client.createBucket(b -> b.bucket(s3.bucket()));
                } catch (BucketAlreadyOwnedByYouException exists) {
                    // Made by another node or an earlier run.
                }
            }
            return client;
        }
    }
}
