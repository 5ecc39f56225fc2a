package dev.agora.frontend.book;

import dev.agora.frontend.upstream.Tier;
import dev.agora.frontend.upstream.Upstream;
import java.util.List;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** The catalog tier over HTTP ({@link CatalogBooks}), through the frontend's {@link Upstream}. */
final class CatalogClient implements Catalog {

    private final Upstream upstream;
    private final CatalogBooks books;

    CatalogClient(Upstream upstream) {
        this.upstream = upstream;
        this.books = upstream.client(Tier.CATALOG, CatalogBooks.class);
    }

    @Override
    public Optional<CatalogBook> find(long id) {
        try {
            return Optional.ofNullable(upstream.call(Tier.CATALOG, () -> books.find(id)));
        } catch (ErrorResponseException problem) {
            if (problem.getStatusCode().value() == HttpStatus.NOT_FOUND.value()) return Optional.empty();
            throw problem;
        }
    }

    @Override
    public List<BookSummary> search(String topic) {
        List<BookSummary> hits = upstream.call(Tier.CATALOG, () -> books.search(topic));
        return hits == null ? List.of() : hits;
    }
}
