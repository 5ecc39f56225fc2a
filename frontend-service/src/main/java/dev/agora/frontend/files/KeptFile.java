package dev.agora.frontend.files;

/**
 * What a download answered from memory says about a file besides its bytes: the headers a catalog node sent for it
 * when its bytes were kept, so both paths answer alike.
 *
 * @param etag the quoted SHA-256 of the content (the key of its bytes)
 * @param size the length in bytes
 * @param contentType {@code Content-Type} as the node sent it
 * @param lastModified {@code Last-Modified} as the node sent it, or null
 * @param disposition {@code Content-Disposition} as the node sent it (it carries the name), or null
 * @param cacheControl {@code Cache-Control} as the node sent it, or null
 */
record KeptFile(
        String etag, long size, String contentType, String lastModified, String disposition, String cacheControl) {

    /** The content's hash in hex, as the ETag quotes it. */
    String hash() {
        return etag.substring(1, etag.length() - 1);
    }
}
