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
 * @param self this node's base URL as {@code nodes} names it; empty: {@code http://127.0.0.1:<port>}
 * @param copies nodes that hold each file (at most the number of nodes)
 * @param layout {@code distributed}: files spread over all {@code nodes}; {@code central}: the first of them holds
 *     and serves every file, one copy
 */
@ConfigurationProperties("agora.files")
record FilesProperties(
        Store store,
        Path directory,
        List<String> nodes,
        String self,
        int copies,
        Layout layout,
        DataSize maxSize,
        Duration copyConnectTimeout,
        Duration copyReadTimeout,
        S3 s3) {

    enum Layout {
        DISTRIBUTED,
        CENTRAL
    }

    enum Store {
        LOCAL,
        S3
    }

    /**
     * @param endpoint the store's URL; empty for AWS itself
     * @param pathStyle {@code http://host/bucket/key} addressing, which MinIO and most S3-compatible stores want
     * @param createBucket create the bucket at start when it is missing (local and test stores)
     */
    record S3(
            String endpoint,
            String region,
            String bucket,
            String prefix,
            String accessKey,
            String secretKey,
            boolean pathStyle,
            boolean createBucket) {}

    FilesProperties {
        nodes = nodes == null
                ? List.of()
                : nodes.stream()
                        .map(String::strip)
                        .filter(n -> !n.isEmpty())
                        .map(FilesProperties::withoutTrailingSlash)
                        .distinct()
                        .toList();
        self = self == null || self.isBlank() ? "" : withoutTrailingSlash(self.strip());
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
