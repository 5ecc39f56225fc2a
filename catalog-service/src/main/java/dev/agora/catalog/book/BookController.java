package dev.agora.catalog.book;

import dev.agora.common.problem.ProblemException;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Search and lookup: the read side of the catalog. */
@RestController
@RequestMapping("/books")
class BookController {

    private final BookReads books;

    BookController(BookReads books) {
        this.books = books;
    }

    @GetMapping
    List<BookSummary> search(@RequestParam @NotBlank @Size(max = 100) String topic) {
        return books.search(topic);
    }

    @GetMapping("/{id}")
    BookView lookup(@PathVariable @Positive long id) {
        return books.lookup(id).orElseThrow(() -> unknownBook(id));
    }

    static ProblemException unknownBook(long id) {
        return ProblemException.notFound("Book " + id + " does not exist");
    }
}
