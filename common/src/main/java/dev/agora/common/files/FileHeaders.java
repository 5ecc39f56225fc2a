package dev.agora.common.files;

import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Locale;
import java.util.Set;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

/**
 * The headers a download of a book file carries besides its range and tag ({@link RangedAnswers}), made in one place
 * so that a catalog node and a frontend answering from its memory send the same ones.
 */
public final class FileHeaders {

    /** A name can be given new content: clients keep the bytes but ask each time (a 304 costs no body). */
    public static final String CACHE_CONTROL = "no-cache";

    /**
     * Between catalog and frontends only: the revision of the name a download or registration answered for. A name's
     * revisions rise in the order its registrations commit, and the announcement of a registration carries it, so a
     * frontend can tell whether what it holds for a name is older than what was announced.
     */
    public static final String REVISION = "Agora-File-Revision";

    /**
     * The types a download is served as when its uploader named one of them; any other (HTML, scripts, SVG, XML, a
     * type that does not parse) is served as {@code application/octet-stream}. Uploaders choose a file's type, and a
     * download comes from the store's own origin: a type a browser would run must never come back.
     */
    static final Set<String> SERVED_TYPES = Set.of(
            "application/epub+zip",
            "application/octet-stream",
            "application/pdf",
            "application/zip",
            "audio/mpeg",
            "audio/ogg",
            "image/gif",
            "image/jpeg",
            "image/png",
            "image/webp",
            "text/csv",
            "text/markdown",
            "text/plain",
            "video/mp4",
            "video/webm");

    private FileHeaders() {}

    /** The strong tag of content named by its hash: the hash, quoted, the same wherever it is answered from. */
    public static String etag(String hash) {
        return "\"" + hash + "\"";
    }

    /** A download's {@code Content-Type}: the uploader's if allowed (with its charset for text), else octet-stream. */
    public static String servedType(String uploaded) {
        if (uploaded == null || uploaded.isBlank()) return MediaType.APPLICATION_OCTET_STREAM_VALUE;
        try {
            MediaType type = MediaType.parseMediaType(uploaded);
            String bare = (type.getType() + "/" + type.getSubtype()).toLowerCase(Locale.ROOT);
            if (!SERVED_TYPES.contains(bare)) return MediaType.APPLICATION_OCTET_STREAM_VALUE;
            var charset = type.getCharset();
            return charset != null && bare.startsWith("text/") ? bare + ";charset=" + charset.name() : bare;
        } catch (IllegalArgumentException unparsableOrUnknownCharset) {
            return MediaType.APPLICATION_OCTET_STREAM_VALUE;
        }
    }

    /**
     * Keeps a download inert wherever it is opened or embedded (set on every answer of one, whoever answers): sandboxed
     * without scripts or the store's origin if a browser renders it, not loadable by other sites, its type not guessed.
     */
    public static void inert(HttpServletResponse response) {
        response.setHeader("Content-Security-Policy", "sandbox");
        response.setHeader("Cross-Origin-Resource-Policy", "same-origin");
        response.setHeader("X-Content-Type-Options", "nosniff");
    }

    /** {@code Last-Modified} of a file registered at {@code created}, as Spring writes HTTP dates (IMF-fixdate). */
    public static String lastModified(Instant created) {
        HttpHeaders headers = new HttpHeaders();
        headers.setLastModified(created);
        return headers.getFirst(HttpHeaders.LAST_MODIFIED);
    }

    public static String disposition(String name) {
        return ContentDisposition.attachment()
                .filename(name, StandardCharsets.UTF_8)
                .build()
                .toString();
    }
}
