package dev.agora.frontend.files;

import java.time.Instant;

/** A book's file on the public API: what it is, and where to download it. */
public record FileView(
        long bookId,
        String title,
        String name,
        long size,
        String mediaType,
        String hash,
        Instant created,
        String url) {}
