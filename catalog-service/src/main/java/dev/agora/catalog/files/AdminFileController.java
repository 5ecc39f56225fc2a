package dev.agora.catalog.files;

import dev.agora.common.files.FileHeaders;
import dev.agora.common.problem.ProblemException;
import dev.agora.common.problem.ProblemTypes;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.constraints.Positive;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriUtils;

/**
 * Registers a file of a book: {@code PUT /admin/books/{id}/files/{name}} with the file as the raw body (any
 * {@code Content-Type}, kept as the file's type), for publishers and admins. 201 for a new name, 200 when the name
 * gets new content. The body is streamed to disk, never held in memory.
 */
@RestController
class AdminFileController {

    static final int MAX_MEDIA_TYPE = 100;

    private final RegisteringFiles registering;

    AdminFileController(RegisteringFiles registering) {
        this.registering = registering;
    }

    @PutMapping("/admin/books/{id}/files/{name}")
    ResponseEntity<FileView> register(
            @PathVariable @Positive long id, @PathVariable String name, HttpServletRequest request) {
        FileController.checkName(name);
        String mediaType = mediaType(request.getContentType());
        long declared = request.getContentLengthLong();
        if (declared > registering.maxSize()) {
            throw new ProblemException(
                    HttpStatus.CONTENT_TOO_LARGE,
                    ProblemTypes.of("too-large"),
                    "A file may have at most " + registering.maxSize() + " bytes");
        }
        RegisteringFiles.Registration outcome;
        try {
            outcome = registering.register(id, name, mediaType, request.getInputStream(), declared);
        } catch (Staging.Incomplete incomplete) {
            throw ProblemException.badRequest(incomplete.getMessage());
        } catch (IOException cutOff) {
            // The client went away mid-body: nothing was kept, and nobody is left to answer.
            throw ProblemException.badRequest("The upload was cut off; nothing was kept");
        }
        return switch (outcome) {
            case RegisteringFiles.Registration.Done done -> {
                URI location = URI.create(
                        "/books/" + id + "/files/" + UriUtils.encodePathSegment(name, StandardCharsets.UTF_8));
                yield ResponseEntity.status(done.created() ? HttpStatus.CREATED : HttpStatus.OK)
                        .header(HttpHeaders.LOCATION, location.toString())
                        .header(FileHeaders.REVISION, Long.toString(done.revision()))
                        .body(done.file());
            }
            case RegisteringFiles.Registration.UnknownBook unknown ->
                throw FileController.unknownBook(unknown.bookId());
            case RegisteringFiles.Registration.TooFewNodes few ->
                throw ProblemException.unavailable("Only " + few.stored() + " of the " + few.needed()
                        + " nodes that must hold a copy took one; nothing was registered, try again");
        };
    }

    private static String mediaType(String contentType) {
        if (contentType == null || contentType.isBlank()) return MediaType.APPLICATION_OCTET_STREAM_VALUE;
        if (contentType.length() > MAX_MEDIA_TYPE) {
            throw ProblemException.badRequest("A media type has at most " + MAX_MEDIA_TYPE + " characters");
        }
        try {
            return MediaType.parseMediaType(contentType).toString();
        } catch (InvalidMediaTypeException invalid) {
            throw ProblemException.badRequest("'" + contentType + "' is not a media type");
        }
    }
}
