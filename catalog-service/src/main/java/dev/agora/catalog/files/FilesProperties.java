package dev.agora.catalog.files;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Book files ({@code agora.files} in application.yml, which documents each one).
 *
 * @param store {@code local} (this node's disk) or {@code s3} (an S3-compatible object store all nodes share)
 * @param directory the local store's folder, and every node's staging folder
 * @param nodes base URLs of the catalog nodes files are spread over; one URL is the central layout, empty means this
 *     node alone
 * @param copies nodes that hold each file (at most the number of nodes)
 * @param layout {@code distributed}: files spread over all {@code nodes}; {@code central}: the first of them holds
 *     and serves every file, one copy
 * @param s3 the object store of {@code store: s3}
 */
@ConfigurationProperties("agora.files")
record FilesProperties(Store store, Path directory, List<String> nodes, int copies, Layout layout, S3 s3) {

    /** Largest file accepted: 4 GB holds any e-book or audio book, and uploads stream, so size costs no memory. */
    DataSize maxSize() {
        return DataSize.ofGigabytes(4);
    }

    /** Connecting to another catalog node on the same network takes milliseconds; a dead one is given up quickly. */
    Duration copyConnectTimeout() {
        return Duration.ofMillis(500);
    }

    /** Longest wait for one read of a copy to another node (not the whole copy, which may take minutes). */
    Duration copyReadTimeout() {
        return Duration.ofSeconds(30);
    }

    enum Layout {
        DISTRIBUTED,
        CENTRAL
    }

    enum Store {
        LOCAL,
        S3
    }

    /**
     * The object store. Its credentials and region are the AWS SDK's own settings: its default chains read {@code
     * AWS_ACCESS_KEY_ID}, {@code AWS_SECRET_ACCESS_KEY} and {@code AWS_REGION} (or a profile, or the instance's
     * role), so they are not repeated here.
     *
     * @param endpoint the store's URL; empty for AWS itself. A store at an endpoint of its own (MinIO and most
     *     S3-compatible stores) is addressed path-style ({@code http://host/bucket/key}), AWS itself virtual-hosted
     * @param bucket the bucket holding every node's blobs
     * @param createBucket create the bucket at start when it is missing (local and test stores)
     */
    record S3(String endpoint, String bucket, boolean createBucket) {

        /** Every blob's key starts with this, so the bucket may hold other things beside them. */
        static final String PREFIX = "blobs/";

        String prefix() {
            return PREFIX;
        }

        boolean pathStyle() {
            return endpoint != null && !endpoint.isBlank();
        }
    }

    FilesProperties {
        nodes = nodes == null
                ? List.of()
                : nodes.stream()
                        .map(String::strip)
                        .filter(n -> !n.isEmpty())
                        .map(FilesProperties::withoutTrailingSlash)
                        .distinct()
                        .toList();
        if (copies < 1) throw new IllegalArgumentException("agora.files.copies must be at least 1");
        if (layout == null) layout = Layout.DISTRIBUTED;
        if (layout == Layout.CENTRAL) {
            nodes = nodes.isEmpty() ? nodes : List.of(nodes.getFirst());
            copies = 1;
        }
    }

    static String withoutTrailingSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
