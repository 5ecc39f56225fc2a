package dev.agora.frontend.files;

import dev.agora.common.files.FileHeaders;
import dev.agora.common.files.RangedAnswers;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpHeaders;

/**
 * Answers a download from a file kept in memory exactly as a catalog node answers it (its {@code SendingFiles}): the
 * same headers, {@code If-None-Match} (304), one {@code Range} with {@code If-Range} (206), 416 past the end, HEAD
 * without a body. The conditions and the range are decided by the same {@link RangedAnswers} the catalog uses.
 */
final class AnsweringFromMemory {

    private AnsweringFromMemory() {}

    static void answer(SmallFiles.Kept kept, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        KeptFile file = kept.file();
        FileHeaders.inert(response);
        if (file.lastModified() != null) response.setHeader(HttpHeaders.LAST_MODIFIED, file.lastModified());
        if (file.cacheControl() != null) response.setHeader(HttpHeaders.CACHE_CONTROL, file.cacheControl());
        RangedAnswers.Bytes bytes = RangedAnswers.decide(request, response, file.etag(), file.size());
        if (bytes == null) return;
        int first = (int) bytes.first();
        int last = (int) bytes.last();
        int length = last - first + 1;
        response.setHeader(HttpHeaders.CONTENT_TYPE, FileHeaders.servedType(file.contentType()));
        response.setContentLength(length);
        if (file.disposition() != null) response.setHeader(HttpHeaders.CONTENT_DISPOSITION, file.disposition());
        if ("HEAD".equals(request.getMethod()) || length == 0) return;
        response.getOutputStream().write(kept.content(), first, length);
    }
}
