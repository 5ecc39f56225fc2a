package dev.agora.catalog.files;

import dev.agora.common.files.FileHeaders;
import dev.agora.common.files.RangedAnswers;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Optional;
import org.springframework.http.HttpHeaders;

/**
 * Answers a download: {@code ETag} (the hash) with {@code If-None-Match} (304), one {@code Range} with
 * {@code If-Range} (206), 416 for a range past the end, and the bytes. A blob on this node's disk of at least
 * {@link #SENDFILE_MIN} bytes goes out with zero copies: Tomcat's sendfile (the kernel copies file to socket; no
 * byte passes through the heap). Smaller blobs and object-store blobs are copied through one 64 KB buffer.
 */
final class SendingFiles {

    /** Tomcat's request attributes for sendfile (its DefaultServlet uses them the same way). */
    private static final String SENDFILE_SUPPORTED = "org.apache.tomcat.sendfile.support";

    private static final String SENDFILE_FILENAME = "org.apache.tomcat.sendfile.filename";
    private static final String SENDFILE_START = "org.apache.tomcat.sendfile.start";
    private static final String SENDFILE_END = "org.apache.tomcat.sendfile.end";
    /** Below this a plain write is cheaper than handing the file to the poller (Tomcat's DefaultServlet: 48 KB). */
    static final long SENDFILE_MIN = 48 * 1024;

    private final BlobStore store;
    private final Counter sentWithSendfile;
    private final Counter sentThroughBuffer;

    SendingFiles(BlobStore store, MeterRegistry meters) {
        this.store = store;
        this.sentWithSendfile = Counter.builder("agora.files.downloads")
                .tag("how", "sendfile")
                .description("Downloads answered with bytes, by how the bytes were sent")
                .register(meters);
        this.sentThroughBuffer =
                Counter.builder("agora.files.downloads").tag("how", "buffer").register(meters);
    }

    void send(StoredFile file, String name, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        FileHeaders.inert(response);
        response.setHeader(HttpHeaders.LAST_MODIFIED, FileHeaders.lastModified(file.created()));
        response.setHeader(HttpHeaders.CACHE_CONTROL, FileHeaders.CACHE_CONTROL);
        response.setHeader(FileHeaders.REVISION, Long.toString(file.revision()));
        RangedAnswers.Bytes bytes = RangedAnswers.decide(request, response, file.etag(), file.size());
        if (bytes == null) return;
        long first = bytes.first();
        long last = bytes.last();
        long length = last - first + 1;
        response.setContentType(FileHeaders.servedType(file.mediaType()));
        response.setContentLengthLong(length);
        response.setHeader(HttpHeaders.CONTENT_DISPOSITION, FileHeaders.disposition(name));
        if ("HEAD".equals(request.getMethod()) || length == 0) return;
        Optional<Path> local = store.localFile(file.hash());
        if (local.isPresent()
                && length >= SENDFILE_MIN
                && Boolean.TRUE.equals(request.getAttribute(SENDFILE_SUPPORTED))) {
            request.setAttribute(SENDFILE_FILENAME, local.get().toAbsolutePath().toString());
            request.setAttribute(SENDFILE_START, first);
            request.setAttribute(SENDFILE_END, last + 1);
            sentWithSendfile.increment();
            return;
        }
        sentThroughBuffer.increment();
        try (InputStream in = store.open(file.hash(), first, last)) {
            OutputStream out = response.getOutputStream();
            // Sized to the part when it is small: a fresh 64 KB array for a 1 KB download is 64 times the bytes sent,
            // all of it garbage at once (the frontend's pass-through sizes its buffer the same way).
            byte[] buffer = new byte[(int) Math.min(length, Staging.BUFFER)];
            for (int read; (read = in.read(buffer)) >= 0; ) out.write(buffer, 0, read);
        }
    }
}
