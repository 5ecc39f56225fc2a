package dev.agora.catalog.files;

import dev.agora.common.security.ServiceTokens;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import org.apache.hc.client5.http.classic.methods.HttpPut;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.FileEntity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a blob to another catalog node ({@code PUT <node>/internal/blobs/<hash>}, the catalog's own service token),
 * streamed from the staged file. The receiver checks the hash itself before it keeps anything.
 */
class BlobCopies {

    private static final Logger log = LoggerFactory.getLogger(BlobCopies.class);

    private final CloseableHttpClient http;
    private final ServiceTokens tokens;

    BlobCopies(CloseableHttpClient http, ServiceTokens tokens) {
        this.http = http;
        this.tokens = tokens;
    }

    /** Whether the node acknowledged a complete, verified copy. */
    boolean send(String node, String hash, Path file) {
        HttpPut put = new HttpPut(URI.create(node + "/internal/blobs/" + hash));
        put.setHeader("Authorization", "Bearer " + tokens.bearer());
        put.setEntity(new FileEntity(file.toFile(), ContentType.APPLICATION_OCTET_STREAM));
        try {
            return http.execute(put, answer -> {
                EntityUtils.consume(answer.getEntity());
                if (answer.getCode() / 100 == 2) return true;
                log.warn("Node {} refused a copy of blob {}: HTTP {}", node, hash, answer.getCode());
                return false;
            });
        } catch (IOException | RuntimeException unreachable) {
            log.warn("Node {} did not take a copy of blob {}: {}", node, hash, unreachable.toString());
            return false;
        }
    }
}
