package dev.agora.frontend.files;

import dev.agora.common.files.ByteRange;
import dev.agora.common.files.EntityTags;
import dev.agora.common.problem.ProblemResponses;
import dev.agora.common.problem.ProblemTypes;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

/**
 * Answers a download from a file kept in memory exactly as a catalog node answers it (its {@code SendingFiles}): the
 * same headers, {@code If-None-Match} (304), one {@code Range} with {@code If-Range} (206), 416 past the end, HEAD
 * without a body. The ranges are read by the same {@link ByteRange} the catalog uses.
 */
final class AnsweringFromMemory {

    private AnsweringFromMemory() {}

    static void answer(SmallFiles.Kept kept, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        KeptFile file = kept.file();
        String etag = file.etag();
        response.setHeader(HttpHeaders.ETAG, etag);
        response.setHeader(HttpHeaders.ACCEPT_RANGES, "bytes");
        if (file.lastModified() != null) response.setHeader(HttpHeaders.LAST_MODIFIED, file.lastModified());
        if (file.cacheControl() != null) response.setHeader(HttpHeaders.CACHE_CONTROL, file.cacheControl());
        if (EntityTags.noneMatchHits(request.getHeader(HttpHeaders.IF_NONE_MATCH), etag)) {
            response.setStatus(HttpStatus.NOT_MODIFIED.value());
            return;
        }
        ByteRange range = ByteRange.of(request.getHeader(HttpHeaders.RANGE), file.size());
        if (!EntityTags.ifRangeHolds(request.getHeader(HttpHeaders.IF_RANGE), etag)) range = new ByteRange.Whole();
        int first;
        int last;
        switch (range) {
            case ByteRange.Unsatisfiable ignored -> {
                response.setHeader(HttpHeaders.CONTENT_RANGE, "bytes */" + file.size());
                ProblemResponses.write(
                        response,
                        HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE,
                        ProblemTypes.of("range-not-satisfiable"),
                        "The file has " + file.size() + " bytes; the range asked for starts past its end");
                return;
            }
            case ByteRange.Part part -> {
                first = (int) part.first();
                last = (int) part.last();
                response.setStatus(HttpStatus.PARTIAL_CONTENT.value());
                response.setHeader(HttpHeaders.CONTENT_RANGE, "bytes " + first + "-" + last + "/" + file.size());
            }
            case ByteRange.Whole ignored -> {
                first = 0;
                last = (int) file.size() - 1;
                response.setStatus(HttpStatus.OK.value());
            }
        }
        int length = last - first + 1;
        response.setHeader(HttpHeaders.CONTENT_TYPE, file.contentType());
        response.setContentLength(length);
        if (file.disposition() != null) response.setHeader(HttpHeaders.CONTENT_DISPOSITION, file.disposition());
        if ("HEAD".equals(request.getMethod()) || length == 0) return;
        response.getOutputStream().write(kept.content(), first, length);
    }
}
