package dev.agora.frontend.book;

import dev.agora.common.problem.ProblemException;
import dev.agora.common.timing.ServerTiming;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Search and lookup: the public API and the classic routes of the original lab systems. */
@RestController
class BookController {

    private final FindingBooks finding;

    BookController(FindingBooks finding) {
        this.finding = finding;
    }

    @GetMapping("/api/books")
    List<BookSummary> search(@RequestParam @NotBlank @Size(max = 100) String topic) {
        FindingBooks.Search search = finding.search(topic);
        ServerTiming.describe("cache", search.cache().label());
        return search.hits();
    }

    @GetMapping("/api/books/{id}")
    BookView lookup(@PathVariable @Positive long id) {
        FindingBooks.Lookup lookup = finding.lookup(id);
        ServerTiming.describe("cache", lookup.cache().label());
        return switch (lookup) {
            case FindingBooks.Lookup.Found found -> BookView.of(found.book());
            case FindingBooks.Lookup.Unknown unknown -> throw ProblemException.notFound("No book with id " + id);
        };
    }

    @GetMapping("/search/{topic}")
    List<BookSummary> classicSearch(@PathVariable @NotBlank @Size(max = 100) String topic) {
        return search(topic);
    }

    @GetMapping("/lookup/{id}")
    BookView classicLookup(@PathVariable @Positive long id) {
        return lookup(id);
    }
}
