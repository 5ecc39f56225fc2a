package dev.agora.frontend.files;

import java.util.List;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.service.annotation.GetExchange;

/** The catalog's file index, as the frontend reads it (a parameter that is null is not sent). */
interface CatalogFiles {

    @GetExchange("/books/{bookId}/files")
    List<CatalogFile> ofBook(
            @PathVariable long bookId,
            @RequestParam(required = false) String after,
            @RequestParam(required = false) Integer limit);

    @GetExchange("/files")
    List<CatalogFile> search(@RequestParam String q);
}
