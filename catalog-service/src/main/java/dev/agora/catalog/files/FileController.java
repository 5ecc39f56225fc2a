package dev.agora.catalog.files;

import dev.agora.common.problem.ProblemException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriUtils;

/**
 * The read side of book files: a book's files, search, and download. A node that does not hold a file's bytes
 * answers its download with 307 to a node that does, naming every holder in {@code Agora-File-Nodes}.
 */
@RestController
class FileController {

    static final String NODES_HEADER = "Agora-File-Nodes";
    static final int SEARCH_LIMIT = 100;
    /** The most files one listing of a book answers. */
    static final int LIST_LIMIT = 1000;

    private final FileIndex index;
    private final SendingFiles sending;
    private final BlobStore store;
    private final Nodes nodes;

    FileController(FileIndex index, SendingFiles sending, BlobStore store, Nodes nodes) {
        this.index = index;
        this.sending = sending;
        this.store = store;
        this.nodes = nodes;
    }

    /**
     * The book's files by name, {@code limit} at most ({@value #LIST_LIMIT} unless asked for fewer): a book may carry
     * any number of files, an answer may not. The next ones are those after the last name of this answer ({@code
     * after}); fewer than {@code limit} means there are no more.
     */
    @GetMapping("/books/{id}/files")
    List<FileView> ofBook(
            @PathVariable @Positive long id,
            @RequestParam(defaultValue = "") @Size(max = FileName.MAX_LENGTH) String after,
            @RequestParam(defaultValue = "" + LIST_LIMIT) @Min(1) @Max(LIST_LIMIT) int limit) {
        String title = index.bookTitle(id).orElseThrow(() -> unknownBook(id));
        return index.ofBook(id, title, after, limit);
    }

    @GetMapping("/files")
    List<FileView> search(@RequestParam @NotBlank @Size(max = 200) String q) {
        return index.search(q.strip(), SEARCH_LIMIT);
    }

    @RequestMapping(
            path = "/books/{id}/files/{name}",
            method = {RequestMethod.GET, RequestMethod.HEAD})
    void download(
            @PathVariable @Positive long id,
            @PathVariable String name,
            HttpServletRequest request,
            HttpServletResponse response)
            throws IOException {
        checkName(name);
        StoredFile file = index.find(id, name).orElseThrow(() -> missing(id, name));
        if (servesHere(file)) {
            sending.send(file, name, request, response);
            return;
        }
        List<String> others =
                file.nodes().stream().filter(n -> !n.equals(nodes.self())).toList();
        if (others.isEmpty()) throw ProblemException.unavailable("No node holds the bytes of this file now");
        response.setStatus(HttpStatus.TEMPORARY_REDIRECT.value());
        response.setHeader(NODES_HEADER, String.join(", ", others));
        response.setHeader(
                HttpHeaders.LOCATION,
                others.getFirst() + "/books/" + id + "/files/"
                        + UriUtils.encodePathSegment(name, StandardCharsets.UTF_8));
    }

    private boolean servesHere(StoredFile file) {
        if (store.shared()) return true;
        return (file.nodes().isEmpty() || file.nodes().contains(nodes.self())) && store.has(file.hash());
    }

    static void checkName(String name) {
        FileName.problem(name).ifPresent(problem -> {
            throw ProblemException.badRequest(problem);
        });
    }

    private ProblemException missing(long id, String name) {
        if (index.bookTitle(id).isEmpty()) return unknownBook(id);
        return ProblemException.notFound("Book " + id + " has no file named '" + name + "'");
    }

    static ProblemException unknownBook(long id) {
        return ProblemException.notFound("Book " + id + " does not exist");
    }
}
