package dev.agora.catalog.files;

import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The S3 store against a real S3-compatible server over HTTP: moto's server, started by the test (the AWS SDK, its
 * signing, path-style addressing and range reads all run for real). {@code .ci/run} installs moto when it is
 * missing; on a machine without it this test is skipped and says why.
 */
class S3BlobStoreTest extends BlobStoreContract {

    private static S3TestServer server;
    private static FilesConfiguration.S3Clients clients;
    private static S3BlobStore store;

    @BeforeAll
    static void startServer() {
        server = S3TestServer.start();
        FilesProperties.S3 settings = new FilesProperties.S3(
                server.endpoint(),
                "us-east-1",
                "agora-test-" + UUID.randomUUID(),
                "blobs/",
                "test",
                "test",
                true,
                true);
        clients = new FilesConfiguration.S3Clients(settings);
        store = new S3BlobStore(clients.client(), settings.bucket(), settings.prefix());
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
}
