package dev.agora.frontend.files;

import dev.agora.common.files.FileHeaders;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.SequencedSet;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.NoHttpResponseException;

/**
 * Passes a download through from a catalog node that holds the file: status and headers as the node answered
 * (200, 206, 304, 416, problems), the bytes copied through one 256 KB buffer as the client takes them, so a 1 GB
 * download costs this heap what a 1 KB one does. A node without the bytes answers 307 naming the holders, which are
 * tried in turn, and remembered for the name's next download ({@link FileHolders}). When a holder dies mid-transfer
 * the rest is asked of the next holder as a range of the same version ({@code If-Range} with the ETag), and the
 * client sees one unbroken body. A whole small file that went through is handed to {@link SmallFiles} to be kept,
 * with the revision of the name the node answered for.
 */
final class Downloading {

    static final String NODES_HEADER = "Agora-File-Nodes";
    /**
     * A large body passes through in reads and writes of up to this much, each a system call on either side (and a
     * copy between the heap and the JDK's direct buffers): fewer and larger ones leave more of a busy machine's cores
     * to the bytes themselves. What one transfer holds in this heap, whatever the file's size.
     */
    private static final int BUFFER = 256 * 1024;

    private static final int MAX_REDIRECTS = 3;
    private static final List<String> REQUEST_HEADERS =
            List.of("Range", "If-Range", "If-None-Match", "If-Modified-Since", "Accept");
    private static final List<String> RESPONSE_HEADERS = List.of(
            "Content-Type",
            "Content-Length",
            "Content-Range",
            "Content-Disposition",
            "ETag",
            "Last-Modified",
            "Accept-Ranges",
            "Cache-Control");

    private final CloseableHttpClient http;
    private final CatalogNodes nodes;
    private final FileHolders holders;

    Downloading(CloseableHttpClient http, CatalogNodes nodes, FileHolders holders) {
        this.http = http;
        this.nodes = nodes;
        this.holders = holders;
    }

    /** The transfer failed on the catalog's side before or while the bytes flowed, and no holder could finish it. */
    static final class Unavailable extends IOException {
        Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * @param filling where a whole small file's bytes go once they have reached the client, or null to keep nothing
     */
    void pass(String catalogPath, HttpServletRequest request, HttpServletResponse response, SmallFiles.Filling filling)
            throws IOException {
        boolean head = "HEAD".equals(request.getMethod());
        Answer answer = open(
                catalogPath,
                request.getMethod(),
                headers(request),
                holders.candidates(catalogPath, nodes.inTurn(), nodes::holders));
        if (answer.response.getCode() == 404) holders.gone(catalogPath);
        boolean readToTheEnd = false;
        try {
            response.setStatus(answer.response.getCode());
            for (String name : RESPONSE_HEADERS) {
                Header header = answer.response.getFirstHeader(name);
                if (header != null) response.setHeader(name, header.getValue());
            }
            // The node sends these too; this frontend does not rely on every node being of a version that does.
            FileHeaders.inert(response);
            Header type = answer.response.getFirstHeader("Content-Type");
            if (type != null && isTheFile(answer.response.getCode())) {
                response.setHeader("Content-Type", FileHeaders.servedType(type.getValue()));
            }
            HttpEntity entity = answer.response.getEntity();
            if (head || entity == null) {
                readToTheEnd = true;
                return;
            }
            KeptFile keepable = filling == null ? null : keepable(answer.response, filling.maxFileSize());
            if (keepable == null) {
                readToTheEnd = copy(answer, catalogPath, response.getOutputStream());
                return;
            }
            ByteArrayOutputStream kept = new ByteArrayOutputStream((int) keepable.size());
            readToTheEnd = copy(answer, catalogPath, new Tee(response.getOutputStream(), kept));
            filling.keep(keepable, revision(answer.response), kept.toByteArray());
        } finally {
            answer.release(readToTheEnd);
        }
    }

    /** Whether an answer of this status carries the file's bytes (a problem keeps its own type). */
    private static boolean isTheFile(int status) {
        return status == 200 || status == 206 || status == 304;
    }

    /**
     * The file a whole answer (200) of at most {@code maxSize} bytes with a strong ETag and the name's revision
     * carries; else null.
     */
    private static KeptFile keepable(ClassicHttpResponse response, long maxSize) {
        if (response.getCode() != 200 || revision(response) <= 0) return null;
        Header length = response.getFirstHeader("Content-Length");
        Header etag = response.getFirstHeader("ETag");
        Header type = response.getFirstHeader("Content-Type");
        if (length == null || etag == null || type == null) return null;
        String tag = etag.getValue();
        if (tag.length() < 3 || !tag.startsWith("\"") || !tag.endsWith("\"")) return null;
        long size;
        try {
            size = Long.parseLong(length.getValue().strip());
        } catch (NumberFormatException malformed) {
            return null;
        }
        if (size < 0 || size > maxSize) return null;
        return new KeptFile(
                tag,
                size,
                FileHeaders.servedType(type.getValue()),
                value(response, "Last-Modified"),
                value(response, "Content-Disposition"),
                value(response, "Cache-Control"));
    }

    /** The revision of the name the node answered for ({@link FileHeaders#REVISION}); 0 when it does not say. */
    static long revision(ClassicHttpResponse response) {
        Header revision = response.getFirstHeader(FileHeaders.REVISION);
        if (revision == null) return 0;
        try {
            return Long.parseLong(revision.getValue().strip());
        } catch (NumberFormatException malformed) {
            return 0;
        }
    }

    private static String value(ClassicHttpResponse response, String name) {
        Header header = response.getFirstHeader(name);
        return header == null ? null : header.getValue();
    }

    /** Writes to the client and to the copy kept; the client's failures end the copy as they would without it. */
    private static final class Tee extends OutputStream {

        private final OutputStream client;
        private final ByteArrayOutputStream kept;

        Tee(OutputStream client, ByteArrayOutputStream kept) {
            this.client = client;
            this.kept = kept;
        }

        @Override
        public void write(int b) throws IOException {
            client.write(b);
            kept.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            client.write(b, off, len);
            kept.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            client.flush();
        }
    }

    private record Answer(HttpUriRequestBase request, ClassicHttpResponse response, List<URI> others) {

        /**
         * Gives the connection back to the pool when its body was read to the end; otherwise cuts it, so that
         * closing does not first read what is left of a large body (a client that went away mid-download).
         */
        void release(boolean readToTheEnd) {
            if (!readToTheEnd) request.cancel();
            try {
                response.close();
            } catch (IOException alreadyBroken) {
                // The connection is gone either way.
            }
        }
    }

    /**
     * The first node's answer that is not a redirect: the candidates in order, then the holders a redirect names.
     */
    private Answer open(String path, String method, List<String[]> headers, List<URI> candidates) throws IOException {
        SequencedSet<URI> tried = new LinkedHashSet<>();
        List<URI> queue = new ArrayList<>(candidates);
        IOException last = null;
        int redirects = 0;
        while (!queue.isEmpty()) {
            URI node = queue.removeFirst();
            if (!tried.add(node)) continue;
            ClassicHttpResponse response;
            HttpUriRequestBase request = request(method, node, path, headers);
            try {
                response = http.executeOpen(null, request, null);
            } catch (ConnectException | NoHttpResponseException unreachable) {
                last = unreachable;
                continue;
            }
            if (response.getCode() != 307 || redirects >= MAX_REDIRECTS) {
                queue.removeAll(tried);
                return new Answer(request, response, queue);
            }
            redirects++;
            Header named = response.getFirstHeader(NODES_HEADER);
            response.close();
            List<URI> holding = named == null
                    ? List.of()
                    : Arrays.stream(named.getValue().split(","))
                            .map(String::strip)
                            .filter(s -> !s.isEmpty())
                            .map(URI::create)
                            .toList();
            holders.redirected(path, holding);
            queue = new ArrayList<>(nodes.holders(holding));
        }
        throw new Unavailable("No catalog node could serve " + path, last);
    }

    /**
     * Copies the body; when the node's side breaks (not the client's), asks the remaining holders for the rest.
     *
     * @return whether the first answer's body was read to its end (its connection can be reused)
     */
    private boolean copy(Answer answer, String path, OutputStream out) throws IOException {
        Header etag = answer.response.getFirstHeader("ETag");
        long[] span = span(answer.response);
        long position = span[0];
        long end = span[1];
        InputStream in = answer.response.getEntity().getContent();
        List<URI> others = new ArrayList<>(answer.others());
        Answer resumed = null;
        boolean resumedToTheEnd = false;
        // Sized to the body when it is small: a fresh 256 KB for every 1 KB download would be most of what copying one
        // costs.
        byte[] buffer = new byte[end < 0 ? BUFFER : (int) Math.clamp(end - position + 1, 1, BUFFER)];
        try {
            while (true) {
                int read;
                try {
                    read = in.read(buffer);
                } catch (IOException broken) {
                    if (etag == null || end < 0 || others.isEmpty()) throw broken;
                    if (resumed != null) resumed.release(false);
                    resumed = resume(path, etag.getValue(), position, end, others, broken);
                    in = resumed.response().getEntity().getContent();
                    continue;
                }
                if (read < 0) break;
                out.write(buffer, 0, read);
                position += read;
            }
            if (end >= 0 && position != end + 1) {
                throw new Unavailable("The body ended at byte " + position + " of " + (end + 1), null);
            }
            resumedToTheEnd = true;
            return resumed == null;
        } finally {
            if (resumed != null) resumed.release(resumedToTheEnd);
        }
    }

    /** The rest of the same version from the next holder that has it. */
    private Answer resume(String path, String etag, long position, long end, List<URI> others, IOException cause)
            throws IOException {
        List<String[]> headers =
                List.of(new String[] {"Range", "bytes=" + position + "-" + end}, new String[] {"If-Range", etag});
        while (!others.isEmpty()) {
            Answer answer;
            try {
                answer = open(path, "GET", headers, List.of(others.removeFirst()));
            } catch (Unavailable unreachable) {
                continue;
            }
            Header range = answer.response().getFirstHeader("Content-Range");
            if (answer.response().getCode() == 206
                    && range != null
                    && range.getValue().startsWith("bytes " + position + "-")) {
                return answer;
            }
            answer.release(false);
        }
        throw new Unavailable("The node sending the file failed and no other could send the rest", cause);
    }

    /** First and last byte of the body as the answer states them; last is -1 when it does not say. */
    private static long[] span(ClassicHttpResponse response) {
        Header range = response.getFirstHeader("Content-Range");
        Header length = response.getFirstHeader("Content-Length");
        if (response.getCode() == 206 && range != null) {
            String value = range.getValue(); // bytes first-last/size
            int space = value.indexOf(' ');
            int dash = value.indexOf('-');
            int slash = value.indexOf('/');
            return new long[] {
                Long.parseLong(value.substring(space + 1, dash)), Long.parseLong(value.substring(dash + 1, slash))
            };
        }
        if (response.getCode() == 200 && length != null) return new long[] {0, Long.parseLong(length.getValue()) - 1};
        return new long[] {0, -1};
    }

    private static List<String[]> headers(HttpServletRequest request) {
        List<String[]> headers = new ArrayList<>();
        for (String name : REQUEST_HEADERS) {
            String value = request.getHeader(name);
            if (value != null) headers.add(new String[] {name, value});
        }
        return headers;
    }

    private static HttpUriRequestBase request(String method, URI node, String path, List<String[]> headers) {
        HttpUriRequestBase request = new HttpUriRequestBase(method, URI.create(node + path));
        for (String[] header : headers) request.setHeader(header[0], header[1]);
        return request;
    }
}
