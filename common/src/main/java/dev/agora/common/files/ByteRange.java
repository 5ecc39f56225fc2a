package dev.agora.common.files;

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
     * @param header the {@code Range} header, or null
     * @param size the file's length in bytes
     */
    static ByteRange of(String header, long size) {
        if (header == null) return new Whole();
        String value = header.strip();
        if (!value.regionMatches(true, 0, "bytes=", 0, 6)) return new Whole();
        String spec = value.substring(6).strip();
        if (spec.contains(",")) return new Whole();
        int dash = spec.indexOf('-');
        if (dash < 0) return new Whole();
        String from = spec.substring(0, dash).strip();
        String to = spec.substring(dash + 1).strip();
        try {
            if (from.isEmpty()) {
                if (to.isEmpty()) return new Whole();
                long suffix = Long.parseLong(to);
                if (suffix <= 0 || size == 0) return new Unsatisfiable();
                return new Part(Math.max(0, size - suffix), size - 1);
            }
            long first = Long.parseLong(from);
            long last = to.isEmpty() ? Long.MAX_VALUE : Long.parseLong(to);
            if (first < 0 || last < first) return new Whole();
            if (first >= size) return new Unsatisfiable();
            return new Part(first, Math.min(last, size - 1));
        } catch (NumberFormatException malformed) {
            // A Range header that does not parse is ignored (RFC 9110 14.2).
            return new Whole();
        }
    }
}
