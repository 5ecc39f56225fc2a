package dev.agora.catalog.files;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Book files ({@code agora.files} in application.yml, which documents each one).
 *
 * @param directory the local store's folder, and every node's staging folder
 * @param layout {@code distributed}: files spread over all {@link #nodes}; {@code central}: the first of them holds
 *     and serves every file, one copy
 * @param s3 the object store, when one is named ({@link #store})
 */
@ConfigurationProperties("agora.files")
record FilesProperties(Path directory, Layout layout, S3 s3) {

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
     * @param bucket the bucket holding every node's blobs; none: the local store
     */
    record S3(String endpoint, String bucket) {

        /** Every blob's key starts with this, so the bucket may hold other things beside them. */
        static final String PREFIX = "blobs/";

        String prefix() {
            return PREFIX;
        }

        boolean pathStyle() {
            return endpoint != null && !endpoint.isBlank();
        }

        /**
         * A store at an endpoint of its own (MinIO in compose and tests) gets its bucket made at start when missing;
         * on AWS itself the bucket is the deployment's, made with its policies, and a node never creates one.
         */
        boolean createBucket() {
            return pathStyle();
        }
    }

    FilesProperties {
        if (layout == null) layout = Layout.DISTRIBUTED;
        if (s3 == null) s3 = new S3("", "");
    }

    /**
     * Where the bytes live: in the S3 bucket (shared by every node) when one is named, else on this node's disk. Naming
     * a bucket is what choosing S3 means, so there is no switch beside it that could disagree.
     */
    Store store() {
        return s3.bucket() == null || s3.bucket().isBlank() ? Store.LOCAL : Store.S3;
    }

    /**
     * Nodes that hold each file: two, so losing one node loses no file, and a third copy would only cost disk and
     * upload time; fewer when there are fewer nodes ({@link Nodes#copies}), one in the central layout.
     */
    int copies() {
        return layout == Layout.CENTRAL ? 1 : 2;
    }

    /**
     * The catalog nodes files are spread over: the catalog's own replica list ({@code agora.instances.catalog-service},
     * {@code CATALOG_INSTANCES}), the same on every node, so a second list that could disagree with it is not asked
     * for; in the central layout its first node alone. Empty: this node alone.
     */
    List<String> nodes(String replicas) {
        List<String> nodes = Arrays.stream(replicas.split(","))
                .map(String::strip)
                .filter(n -> !n.isEmpty())
                .map(FilesProperties::withoutTrailingSlash)
                .distinct()
                .toList();
        return layout == Layout.CENTRAL && !nodes.isEmpty() ? List.of(nodes.getFirst()) : nodes;
    }

    static String withoutTrailingSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
