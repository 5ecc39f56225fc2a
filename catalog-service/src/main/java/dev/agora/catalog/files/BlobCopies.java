package dev.agora.catalog.files;

import dev.agora.common.security.ServiceTokens;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import org.apache.hc.client5.http.classic.methods.HttpPut;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.FileEntity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a blob to another catalog node ({@code PUT <node>/internal/blobs/<hash>}, the catalog's own service token),
 * streamed from the staged file. The receiver checks the hash itself before it keeps anything. A copy that finds every
 * pooled connection to the node busy for the pool's wait is not made (and counted in
 * {@code agora_files_copies_pool_rejected_total}): the upload then has one copy fewer, and is refused when it has fewer
 * than it needs, rather than waiting behind transfers that may take minutes.
 */
class BlobCopies {

    private static final Logger log = LoggerFactory.getLogger(BlobCopies.class);

    private final CloseableHttpClient http;
    private final ServiceTokens tokens;
    private final Counter poolRejected;

    BlobCopies(CloseableHttpClient http, ServiceTokens tokens, MeterRegistry meters) {
        this.http = http;
        this.tokens = tokens;
        this.poolRejected = Counter.builder("agora.files.copies.pool.rejected")
                .description("Copies to another node not made: no pooled connection to it came free in time")
                .register(meters);
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
        } catch (ConnectionRequestTimeoutException busy) {
            poolRejected.increment();
            log.warn("No connection to node {} came free for a copy of blob {}", node, hash);
            return false;
        } catch (IOException | RuntimeException unreachable) {
            log.warn("Node {} did not take a copy of blob {}: {}", node, hash, unreachable.toString());
            return false;
        }
    }
}
