package dev.agora.catalog.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.regions.Region;

/**
 * The S3 store against a real S3-compatible server over HTTP: moto's server, started by the test (the AWS SDK, its
 * signing, path-style addressing and range reads all run for real). {@code .ci/run} installs moto when it is
 * missing; on a machine without it this test is skipped and says why.
 */
class S3BlobStoreTest extends BlobStoreContract {

    private static final MeterRegistry meters = new SimpleMeterRegistry();
    private static S3TestServer server;
    private static FilesConfiguration.S3Clients clients;
    private static S3BlobStore store;

    @BeforeAll
    static void startServer() {
        server = S3TestServer.start();
        FilesProperties.S3 settings = new FilesProperties.S3(server.endpoint(), "agora-test-" + UUID.randomUUID());
        clients = new FilesConfiguration.S3Clients(
                settings,
                StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")),
                Region.US_EAST_1,
                meters);
        store = new S3BlobStore(clients.client(), clients.metrics(), settings.bucket(), settings.prefix());
    }

    @AfterAll
    static void stopServer() {
        if (clients != null) clients.close();
        if (server != null) server.close();
    }

    @Override
    BlobStore store() {
        return store;
    }

    @Test
    void aCallThatFindsEveryPooledConnectionBusyIsRefusedAndCountedAndThePoolRecovers() throws IOException {
        byte[] content = new byte[4 * 1024 * 1024];
        new Random(7).nextBytes(content);
        Staging staging = new Staging(folder.resolve("pool-staging"));
        String hash;
        try (Staging.Staged staged = staging.receive(new ByteArrayInputStream(content), content.length, 1L << 30)) {
            hash = staged.hash();
            store.keep(hash, staged.file(), staged.size());
        }
        double rejectedBefore =
                meters.get("agora.files.s3.pool.rejected").counter().count();

        // Every connection holds a download nobody reads: the pool is exhausted, not the server.
        List<InputStream> held = new ArrayList<>();
        try {
            for (int i = 0; i < FilesConfiguration.S3_MAX_CONNECTIONS; i++) {
                held.add(store.open(hash, 0, content.length - 1));
            }
            assertThatThrownBy(() -> store.has(hash)).isInstanceOf(SdkClientException.class);
            assertThat(meters.get("agora.files.s3.pool.rejected").counter().count())
                    .isEqualTo(rejectedBefore + 1);
        } finally {
            for (InputStream download : held) download.close();
        }

        assertThat(store.has(hash)).isTrue();
        try (InputStream again = store.open(hash, 0, 9)) {
            assertThat(again.readAllBytes()).isEqualTo(java.util.Arrays.copyOf(content, 10));
        }
        assertThat(meters.get("agora.files.s3.pool.max").gauge().value())
                .isEqualTo(FilesConfiguration.S3_MAX_CONNECTIONS);
        assertThat(meters.get("agora.files.s3.pool.pending").gauge().value()).isZero();
    }
}
