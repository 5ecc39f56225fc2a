package dev.agora.common.files;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.springframework.http.ContentDisposition;

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

    /** HTTP's date format (RFC 9110, IMF-fixdate): the day always two digits, unlike RFC_1123_DATE_TIME. */
    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.ofPattern(
                    "EEE, dd MMM yyyy HH:mm:ss zzz", Locale.US)
            .withZone(ZoneId.of("GMT"));

    private FileHeaders() {}

    /** {@code Last-Modified} of a file registered at {@code created} (whole seconds, as HTTP dates have). */
    public static String lastModified(Instant created) {
        return HTTP_DATE.format(created);
    }

    /** {@code Content-Disposition}: an attachment under the file's name. */
    public static String disposition(String name) {
        return ContentDisposition.attachment()
                .filename(name, StandardCharsets.UTF_8)
                .build()
                .toString();
    }
}
