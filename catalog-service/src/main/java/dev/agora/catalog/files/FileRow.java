package dev.agora.catalog.files;

import java.time.Instant;

/**
 * A book file as the index queries read it, with its book's title and one node holding its blob ({@code node}: null
 * when the query leaves the nodes out, or no node is listed).
 */
record FileRow(
        long bookId,
        String title,
        String name,
        long size,
        String mediaType,
        String hash,
        Instant created,
        long revision,
        String node) {}
