package dev.agora.catalog.files;

import java.time.Instant;
import java.util.List;

/**
 * A book's file as the index knows it. {@code nodes} are the catalog nodes that hold its bytes; empty when every
 * node reaches them (an object store).
 */
record FileView(
        long bookId,
        String title,
        String name,
        long size,
        String mediaType,
        String hash,
        Instant created,
        List<String> nodes) {}
