package dev.agora.frontend.book;

import dev.agora.common.client.CallSafety;
import dev.agora.frontend.upstream.Tier;
import dev.agora.frontend.upstream.Upstream;
import java.util.List;
import java.util.Optional;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** The catalog tier over HTTP ({@code GET /books/{id}}, {@code GET /books?topic=}). */
final class CatalogClient implements Catalog {

    private static final ParameterizedTypeReference<List<BookSummary>> HITS = new ParameterizedTypeReference<>() {};

    private final Upstream upstream;

    CatalogClient(Upstream upstream) {
        this.upstream = upstream;
    }

    @Override
    public Optional<CatalogBook> find(long id) {
        try {
            return Optional.ofNullable(upstream.call(Tier.CATALOG, CallSafety.IDEMPOTENT, replica -> replica.client()
                    .get()
                    .uri("/books/{id}", id)
                    .retrieve()
                    .body(CatalogBook.class)));
        } catch (ErrorResponseException problem) {
            if (problem.getStatusCode().value() == HttpStatus.NOT_FOUND.value()) return Optional.empty();
            throw problem;
        }
    }

    @Override
    public List<BookSummary> search(String topic) {
        List<BookSummary> hits = upstream.call(Tier.CATALOG, CallSafety.IDEMPOTENT, replica -> replica.client()
                .get()
                .uri(uri -> uri.path("/books").queryParam("topic", topic).build())
                .retrieve()
                .body(HITS));
        return hits == null ? List.of() : hits;
    }
}
