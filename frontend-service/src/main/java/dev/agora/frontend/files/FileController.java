package dev.agora.frontend.files;

import dev.agora.common.api.Access;
import dev.agora.common.files.FileHeaders;
import dev.agora.common.problem.ProblemException;
import dev.agora.common.security.Roles;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriUtils;
import tools.jackson.databind.json.JsonMapper;

/**
 * Book files on the public API (seed 003): search, a book's files, download (public), and register (publisher or
 * admin, the caller's token relayed to the catalog, which checks it again). Uploads and downloads are streamed
 * through, never held here, except small files uploaded or downloaded once: their bytes are kept and answered from
 * memory ({@link SmallFiles}). Names and bounds are the catalog's to check, and its problems are passed on as they are.
 */
@RestController
@Tag(name = "files", description = "Book files: search, list, download, upload")
class FileController {

    private static final String FILES_PATH = "/api/books/{id}/files/{name}";
    private static final String FILE_NAME = "The file's name, percent-encoded as a path segment";

    private final CatalogNodes nodes;
    private final ListingFiles listing;
    private final Uploading uploading;
    private final Downloading downloading;
    private final SmallFiles smallFiles;
    private final JsonMapper json;
    private final Counter poolRefusals;

    FileController(
            CatalogNodes nodes,
            ListingFiles listing,
            Uploading uploading,
            Downloading downloading,
            SmallFiles smallFiles,
            JsonMapper json,
            MeterRegistry meters) {
        this.nodes = nodes;
        this.listing = listing;
        this.uploading = uploading;
        this.downloading = downloading;
        this.smallFiles = smallFiles;
        this.json = json;
        this.poolRefusals = Counter.builder("agora.files.pool.rejected")
                .description("Transfers refused with 503: every pooled connection to the node stayed busy")
                .register(meters);
    }

    @GetMapping("/api/files")
    @Access
    @Operation(operationId = "searchFiles", summary = "Files whose name or title contains the query")
    List<FileView> search(@RequestParam String q) {
        return views(nodes.read(index -> index.search(q)));
    }

    /** The book's files by name, {@code limit} at most; the next ones are those after the last name answered. */
    @GetMapping("/api/books/{id}/files")
    @Access
    @Operation(operationId = "listBookFiles", summary = "A book's files by name")
    List<FileView> ofBook(
            @PathVariable @Positive long id,
            @RequestParam(defaultValue = "") @Size(max = 255) String after,
            @RequestParam(defaultValue = "" + ListingFiles.LIMIT) @Min(1) @Max(ListingFiles.LIMIT) int limit) {
        return listing.ofBook(id, after, limit);
    }

    @GetMapping(FILES_PATH)
    @Access
    @Operation(
            operationId = "downloadFile",
            summary = "A file's bytes; resumes with Range (If-Range), revalidates with If-None-Match",
            parameters =
                    @Parameter(
                            name = "name",
                            in = ParameterIn.PATH,
                            required = true,
                            description = FILE_NAME,
                            schema = @Schema(type = "string", minLength = 1, maxLength = 255)),
            responses = {
                @ApiResponse(
                        responseCode = "200",
                        description = "The file",
                        content =
                                @Content(
                                        mediaType = "application/octet-stream",
                                        schema = @Schema(type = "string", format = "binary"))),
                @ApiResponse(
                        responseCode = "206",
                        description = "The range asked for",
                        content =
                                @Content(
                                        mediaType = "application/octet-stream",
                                        schema = @Schema(type = "string", format = "binary"))),
                @ApiResponse(responseCode = "304", description = "Not modified"),
                @ApiResponse(responseCode = "404", description = "No such file"),
                @ApiResponse(responseCode = "416", description = "The range lies past the end")
            })
    void download(@PathVariable @Positive long id, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        String raw = rawName(request);
        String name = decoded(raw);
        SmallFiles.Kept kept = name == null ? null : smallFiles.find(id, name);
        if (kept != null) {
            AnsweringFromMemory.answer(kept, request, response);
            return;
        }
        SmallFiles.Filling filling = name == null ? null : smallFiles.filling(id, name);
        try {
            downloading.pass("/books/" + id + "/files/" + raw, request, response, filling);
        } catch (Downloading.Unavailable unavailable) {
            if (response.isCommitted()) throw unavailable;
            response.reset();
            throw ProblemException.unavailable("No catalog node holding the file answered; try again");
        } catch (ConnectionRequestTimeoutException busy) {
            poolRefusals.increment();
            if (response.isCommitted()) throw busy;
            response.reset();
            throw ProblemException.unavailable("Too many file transfers are under way; try again");
        }
    }

    @RequestMapping(path = FILES_PATH, method = RequestMethod.HEAD)
    @Access
    @Operation(
            operationId = "fileHeaders",
            summary = "A file's headers (size, type, ETag) without its bytes",
            parameters =
                    @Parameter(
                            name = "name",
                            in = ParameterIn.PATH,
                            required = true,
                            description = FILE_NAME,
                            schema = @Schema(type = "string", minLength = 1, maxLength = 255)),
            responses = {
                @ApiResponse(responseCode = "200", description = "The file's headers"),
                @ApiResponse(responseCode = "404", description = "No such file")
            })
    void headers(@PathVariable @Positive long id, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        download(id, request, response);
    }

    @PutMapping(FILES_PATH)
    @Access(value = {Roles.PUBLISHER, Roles.ADMIN})
    @Operation(
            operationId = "uploadFile",
            summary = "Register a book file under a name (a new content for an existing name replaces it)",
            description = "The body is streamed to the catalog nodes as it arrives; send its Content-Type.",
            parameters =
                    @Parameter(
                            name = "name",
                            in = ParameterIn.PATH,
                            required = true,
                            description = FILE_NAME,
                            schema = @Schema(type = "string", minLength = 1, maxLength = 255)),
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            required = true,
                            content =
                                    @Content(
                                            mediaType = "application/octet-stream",
                                            schema = @Schema(type = "string", format = "binary"))),
            responses = {
                @ApiResponse(
                        responseCode = "201",
                        description = "Registered",
                        content = @Content(schema = @Schema(implementation = FileView.class))),
                @ApiResponse(responseCode = "400", description = "A bad name"),
                @ApiResponse(responseCode = "404", description = "No such book"),
                @ApiResponse(responseCode = "413", description = "Larger than the catalog takes")
            })
    void upload(@PathVariable @Positive long id, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        String raw = rawName(request);
        String name = decoded(raw);
        long declared = request.getContentLengthLong();
        SmallFiles.Filling filling = name == null || declared < 0 ? null : smallFiles.filling(id, name);
        CapturingBody captured = filling != null && declared <= filling.maxFileSize()
                ? new CapturingBody(request.getInputStream(), (int) declared)
                : null;
        ClassicHttpResponse answer;
        try {
            answer = uploading.send(
                    "/admin/books/" + id + "/files/" + raw,
                    request,
                    captured != null ? captured : request.getInputStream());
        } catch (java.net.ConnectException unreachable) {
            throw ProblemException.unavailable("No catalog node took the upload; try again");
        } catch (ConnectionRequestTimeoutException busy) {
            poolRefusals.increment();
            throw ProblemException.unavailable("Too many file transfers are under way; try again");
        } catch (IOException broken) {
            // The client stopped sending, or the catalog node went away mid-body: either way the catalog keeps
            // nothing of it. Expected, so no error log; a client still listening may send it again.
            throw ProblemException.unavailable("The upload did not complete; nothing was registered");
        }
        try (answer) {
            response.setStatus(answer.getCode());
            HttpEntity entity = answer.getEntity();
            byte[] body = entity == null ? new byte[0] : read(entity.getContent());
            Header type = answer.getFirstHeader("Content-Type");
            if (answer.getCode() / 100 == 2) {
                CatalogFile file = json.readValue(body, CatalogFile.class);
                if (captured != null) keep(filling, file, answer, captured.whole());
                response.setHeader("Location", CatalogFile.url(id, file.name()));
                response.setContentType(MediaType.APPLICATION_JSON_VALUE);
                json.writeValue(response.getOutputStream(), file.view());
            } else {
                if (type != null) response.setContentType(type.getValue());
                response.getOutputStream().write(body);
            }
        }
    }

    /**
     * Keeps a small file just registered, so that its first download is answered from memory: the headers are those a
     * catalog node sends with it ({@link FileHeaders}), the name's revision the one the catalog gave it.
     */
    private static void keep(SmallFiles.Filling filling, CatalogFile file, ClassicHttpResponse answer, byte[] content) {
        long registered = Downloading.revision(answer);
        if (content == null || registered <= 0) return;
        KeptFile kept = new KeptFile(
                FileHeaders.etag(file.hash()),
                file.size(),
                file.mediaType(),
                FileHeaders.lastModified(file.created()),
                FileHeaders.disposition(file.name()),
                FileHeaders.CACHE_CONTROL);
        filling.keep(kept, registered, content);
    }

    private static List<FileView> views(List<CatalogFile> files) {
        return files == null ? List.of() : files.stream().map(CatalogFile::view).toList();
    }

    /** The name as the client encoded it, passed on unchanged (the catalog decodes and checks it). */
    private static String rawName(HttpServletRequest request) {
        String uri = request.getRequestURI();
        String name = uri.substring(uri.lastIndexOf('/') + 1);
        if (name.isEmpty()) throw ProblemException.badRequest("A file name is missing");
        return name;
    }

    /** The name as the catalog will read it, or null when it does not decode (the catalog then answers the problem). */
    private static String decoded(String raw) {
        try {
            return UriUtils.decode(raw, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return null;
        }
    }

    /** The catalog's answer to an upload: a file view or a problem, a few hundred bytes (bounded at 64 KB). */
    private static byte[] read(InputStream in) throws IOException {
        try (in) {
            return in.readNBytes(64 * 1024);
        }
    }
}
