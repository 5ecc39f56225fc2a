package dev.agora.common.files;

import dev.agora.common.problem.ProblemResponses;
import dev.agora.common.problem.ProblemTypes;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.context.request.ServletWebRequest;

/**
 * The part of a download that the request's conditions and range decide, the same wherever the bytes come from (a
 * catalog node's disk or object store, a frontend's memory): the entity tag and {@code Accept-Ranges}, 304 for a
 * matching {@code If-None-Match} (Spring's {@code checkNotModified}), 416 for a range past the end, else 200 or 206
 * (one {@code Range}, honoured only while {@code If-Range} names the current tag) with its {@code Content-Range}.
 */
public final class RangedAnswers {

    private RangedAnswers() {}

    /**
     * Answers what the conditions decide and tells which bytes, if any, the caller still sends (after its own content
     * headers).
     *
     * @param etag the file's strong tag, quoted
     * @param size the file's length in bytes
     * @return the bytes to send, first to last inclusive; null when the answer is complete (304 or 416)
     */
    public static ByteRange.Part decide(
            HttpServletRequest request, HttpServletResponse response, String etag, long size) throws IOException {
        response.setHeader(HttpHeaders.ETAG, etag);
        response.setHeader(HttpHeaders.ACCEPT_RANGES, "bytes");
        // Spring MVC's evaluation of the preconditions (RFC 9110 13.2: If-None-Match by weak comparison, If-Match),
        // which sets the 304 (or 412) itself.
        if (new ServletWebRequest(request, response).checkNotModified(etag)) return null;
        ByteRange range = ByteRange.of(request.getHeader(HttpHeaders.RANGE), size);
        // If-Range: the part only while the client's copy is the current one (a strong tag, compared as is).
        String ifRange = request.getHeader(HttpHeaders.IF_RANGE);
        if (ifRange != null && !ifRange.strip().equals(etag)) range = new ByteRange.Whole();
        return switch (range) {
            case ByteRange.Unsatisfiable ignored -> {
                response.setHeader(HttpHeaders.CONTENT_RANGE, "bytes */" + size);
                ProblemResponses.write(
                        response,
                        HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE,
                        ProblemTypes.of("range-not-satisfiable"),
                        "The file has " + size + " bytes; the range asked for starts past its end");
                yield null;
            }
            case ByteRange.Part part -> {
                response.setStatus(HttpStatus.PARTIAL_CONTENT.value());
                response.setHeader(HttpHeaders.CONTENT_RANGE, "bytes " + part.first() + "-" + part.last() + "/" + size);
                yield part;
            }
            case ByteRange.Whole ignored -> {
                response.setStatus(HttpStatus.OK.value());
                yield new ByteRange.Part(0, size - 1);
            }
        };
    }
}
