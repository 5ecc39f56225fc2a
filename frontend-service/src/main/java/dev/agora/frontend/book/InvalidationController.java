package dev.agora.frontend.book;

import jakarta.validation.Valid;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** Receives the catalog's invalidation pushes ({@code /internal/**}: the internal token is checked by common). */
@RestController
class InvalidationController {

    private final BookCache cache;

    InvalidationController(BookCache cache) {
        this.cache = cache;
    }

    /** An unknown book is harmless: it only raises the version below which answers are refused. */
    @PostMapping("/internal/cache/invalidations")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void invalidate(@Valid @RequestBody Invalidation invalidation) {
        cache.invalidate(invalidation.bookId(), invalidation.version(), invalidation.affectsSearch());
    }
}
