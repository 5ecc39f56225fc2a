package dev.agora.common.files;

import java.util.List;
import org.springframework.http.HttpRange;

/**
 * The part of a file a request asked for (RFC 9110 section 14): the whole file, one range of it, or nothing
 * satisfiable. Several ranges in one request are answered with the whole file, which the RFC allows; resumable
 * downloads ask for one. Shared by every service that answers a download (the catalog from its blobs, the frontend
 * from the small files it keeps in memory), so both read a {@code Range} header alike.
 */
public sealed interface ByteRange {

    record Whole() implements ByteRange {}

    /** Bytes {@code first} to {@code last}, both included. */
    record Part(long first, long last) implements ByteRange {
        public long length() {
            return last - first + 1;
        }
    }

    record Unsatisfiable() implements ByteRange {}

    /**
     * Spring's parser of the header; what it refuses (not {@code bytes=}, malformed, backwards) is ignored, as RFC 9110
     * 14.2 says.
     *
     * @param header the {@code Range} header, or null
     * @param size the file's length in bytes
     */
    static ByteRange of(String header, long size) {
        List<HttpRange> ranges;
        try {
            ranges = HttpRange.parseRanges(header);
        } catch (IllegalArgumentException malformed) {
            return new Whole();
        }
        if (ranges.size() != 1) return new Whole();
        long first = ranges.getFirst().getRangeStart(size);
        return first >= size
                ? new Unsatisfiable()
                : new Part(first, ranges.getFirst().getRangeEnd(size));
    }
}
