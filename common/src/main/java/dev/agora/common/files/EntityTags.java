package dev.agora.common.files;

/** Conditional requests on a strong entity tag (RFC 9110 section 13), as downloads of immutable blobs answer them. */
public final class EntityTags {

    private EntityTags() {}

    /** The strong tag of content named by its hash: the hash, quoted. The same wherever the content is answered from. */
    public static String ofHash(String hash) {
        return "\"" + hash + "\"";
    }

    /**
     * Whether an {@code If-None-Match} header names the tag (or {@code *}), so the answer is 304. Weak tags compare by
     * their value, as the RFC's weak comparison for this header says.
     *
     * @param ifNoneMatch the header, or null
     * @param etag the current tag, quoted
     */
    public static boolean noneMatchHits(String ifNoneMatch, String etag) {
        if (ifNoneMatch == null) return false;
        for (String candidate : ifNoneMatch.split(",")) {
            String tag = candidate.strip();
            if (tag.startsWith("W/")) tag = tag.substring(2);
            if (tag.equals("*") || tag.equals(etag)) return true;
        }
        return false;
    }

    /** Whether an {@code If-Range} header lets a range be answered: absent, or the same strong tag. */
    public static boolean ifRangeHolds(String ifRange, String etag) {
        return ifRange == null || ifRange.strip().equals(etag);
    }
}
