package dev.agora.common.files;

import dev.agora.common.problem.ProblemResponses;
import dev.agora.common.problem.ProblemTypes;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpRange;
import org.springframework.http.HttpStatus;
import org.springframework.web.context.request.ServletWebRequest;

/**
 * The part of a download that the request's conditions and range decide, the same wherever the bytes come from (a
 * catalog node's disk or object store, a frontend's memory): the entity tag and {@code Accept-Ranges}, 304 for a
 * matching {@code If-None-Match}, 416 for a range past the end, else 200 or 206 (one {@code Range}, read by Spring's
 * {@link HttpRange}, honoured only while {@code If-Range} names the current tag) with its {@code Content-Range}.
 */
public final class RangedAnswers {

    private RangedAnswers() {}

    /** Bytes {@code first} to {@code last} of a file, both included. */
    public record Bytes(long first, long last) {}

    /**
     * Answers what the conditions decide and returns the bytes the caller still sends (after its own content headers),
     * or null when the answer is complete (304, 412 or 416). {@code etag} is the file's strong tag, quoted.
     */
    public static Bytes decide(HttpServletRequest request, HttpServletResponse response, String etag, long size)
            throws IOException {
        response.setHeader(HttpHeaders.ETAG, etag);
        response.setHeader(HttpHeaders.ACCEPT_RANGES, "bytes");
        // Spring MVC's check of RFC 9110 13.2's preconditions (If-None-Match compared weakly, If-Match) sets 304/412.
        if (new ServletWebRequest(request, response).checkNotModified(etag)) return null;
        // If-Range: the part only while the client's copy is the current one (a strong tag, compared as is).
        String ifRange = request.getHeader(HttpHeaders.IF_RANGE);
        HttpRange range =
                ifRange == null || ifRange.strip().equals(etag) ? single(request.getHeader(HttpHeaders.RANGE)) : null;
        if (range == null) {
            response.setStatus(HttpStatus.OK.value());
            return new Bytes(0, size - 1);
        }
        long first = range.getRangeStart(size);
        if (first >= size) {
            response.setHeader(HttpHeaders.CONTENT_RANGE, "bytes */" + size);
            ProblemResponses.write(
                    response,
                    HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE,
                    ProblemTypes.of("range-not-satisfiable"),
                    "The file has " + size + " bytes; the range asked for starts past its end");
            return null;
        }
        Bytes part = new Bytes(first, range.getRangeEnd(size));
        response.setStatus(HttpStatus.PARTIAL_CONTENT.value());
        response.setHeader(HttpHeaders.CONTENT_RANGE, "bytes " + part.first() + "-" + part.last() + "/" + size);
        return part;
    }

    /**
     * The one range a {@code Range} header asks for; null (the whole file) for none, for several (RFC 9110 14 allows
     * the whole file, and resumable downloads ask for one) and for what Spring's parser refuses (not {@code bytes=},
     * malformed, backwards), which RFC 9110 14.2 says to ignore.
     */
    static HttpRange single(String header) {
        try {
            var ranges = HttpRange.parseRanges(header);
            return ranges.size() == 1 ? ranges.getFirst() : null;
        } catch (IllegalArgumentException malformed) {
            return null;
        }
    }
}
