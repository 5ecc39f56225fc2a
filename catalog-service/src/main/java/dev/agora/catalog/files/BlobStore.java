package dev.agora.catalog.files;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where the bytes of book files live, each under its SHA-256 (content-addressed: identical content is stored once,
 * and a blob never changes once stored). Blobs arrive already complete in a staged file, so a store never shows a
 * half-written blob.
 */
interface BlobStore {

    /**
     * Whether every catalog node reaches the same blobs (an object store): then any node serves any file and the
     * index records no holders. A local store holds only the blobs placed on this node.
     */
    boolean shared();

    boolean has(String hash);

    /** Keeps the staged file's content as the blob {@code hash}; nothing happens when the blob exists already. */
    void keep(String hash, Path staged, long size) throws IOException;

    /** The blob as a local file, when it is one (so it can be sent with zero copies). */
    Optional<Path> localFile(String hash);

    /** Bytes {@code first} to {@code last} (both included) of the blob. */
    InputStream open(String hash, long first, long last) throws IOException;
}
