package dev.agora.frontend.book;

import java.util.List;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.service.annotation.GetExchange;

/** The catalog's book reads, as the frontend calls them (a 404 is thrown as {@code HttpClientErrorException}). */
interface CatalogBooks {

    @GetExchange("/books/{id}")
    CatalogBook find(@PathVariable long id);

    @GetExchange("/books")
    List<BookSummary> search(@RequestParam String topic);
}
