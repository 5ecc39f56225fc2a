package dev.agora.catalog.files;

import dev.agora.common.files.FileHeaders;
import java.time.Instant;
import java.util.List;

/**
 * What a download needs to know of a file: its blob, its length, its type, its name's revision, and where its bytes
 * are.
 */
record StoredFile(String hash, long size, String mediaType, Instant created, long revision, List<String> nodes) {

    String etag() {
        return FileHeaders.etag(hash);
    }
}
