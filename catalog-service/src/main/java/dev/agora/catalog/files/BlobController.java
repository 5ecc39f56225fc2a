package dev.agora.catalog.files;

import dev.agora.common.problem.ProblemException;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.regex.Pattern;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Another catalog node's copy of a blob placed on this one ({@code PUT /internal/blobs/{hash}}, service tokens
 * only). The bytes are hashed as they arrive and kept only when they are what the name says.
 */
@RestController
class BlobController {

    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

    private final BlobStore store;
    private final Staging staging;
    private final long maxSize;

    BlobController(BlobStore store, Staging staging, FilesProperties properties) {
        this.store = store;
        this.staging = staging;
        this.maxSize = properties.maxSize().toBytes();
    }

    @PutMapping("/internal/blobs/{hash}")
    ResponseEntity<Void> keep(@PathVariable String hash, HttpServletRequest request) throws IOException {
        if (!SHA256.matcher(hash).matches()) throw ProblemException.badRequest("Not a SHA-256 in hex: " + hash);
        try (Staging.Staged staged =
                staging.receive(request.getInputStream(), request.getContentLengthLong(), maxSize)) {
            if (!staged.hash().equals(hash)) {
                throw ProblemException.badRequest("The bytes sent hash to " + staged.hash() + ", not " + hash);
            }
            store.keep(hash, staged.file(), staged.size());
        } catch (Staging.Incomplete incomplete) {
            throw ProblemException.badRequest(incomplete.getMessage());
        }
        return ResponseEntity.noContent().build();
    }
}
