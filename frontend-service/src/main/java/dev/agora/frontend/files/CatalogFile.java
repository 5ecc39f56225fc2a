package dev.agora.frontend.files;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.springframework.web.util.UriUtils;

/** A file as the catalog's index answers it; the nodes holding it stay behind the frontend. */
record CatalogFile(
        long bookId,
        String title,
        String name,
        long size,
        String mediaType,
        String hash,
        Instant created,
        List<String> nodes) {

    FileView view() {
        return new FileView(bookId, title, name, size, mediaType, hash, created, url(bookId, name));
    }

    static String url(long bookId, String name) {
        return "/api/books/" + bookId + "/files/" + UriUtils.encodePathSegment(name, StandardCharsets.UTF_8);
    }
}
