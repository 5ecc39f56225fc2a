package dev.agora.common.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.web.util.DefaultUriBuilderFactory;

/** A replica's URIs are those Spring's own factory on its base URL makes; fixed paths are only made once. */
class FixedPathUrisTest {

    private final URI base = URI.create("http://127.0.0.1:8280");
    private final FixedPathUris uris = new FixedPathUris(base);
    private final DefaultUriBuilderFactory spring = new DefaultUriBuilderFactory(base.toString());

    @Test
    void aFixedPathExpandsAsSpringExpandsItAndOnlyOnce() {
        URI first = uris.expand("/internal/reservations");
        assertThat(first).isEqualTo(spring.expand("/internal/reservations"));
        assertThat(uris.expand("/internal/reservations")).isSameAs(first);
        assertThat(uris.expand("/internal/reservations", Map.of())).isSameAs(first);
    }

    @Test
    void aTemplateWithVariablesIsExpandedForEachCall() {
        assertThat(uris.expand("/orders/{id}", 7)).isEqualTo(URI.create("http://127.0.0.1:8280/orders/7"));
        assertThat(uris.expand("/orders/{id}", 8)).isEqualTo(URI.create("http://127.0.0.1:8280/orders/8"));
        assertThat(uris.expand("/books/{id}", Map.of("id", "a b")))
                .isEqualTo(spring.expand("/books/{id}", Map.of("id", "a b")));
        assertThat(uris.uriString("/orders").queryParam("page", 2).build())
                .isEqualTo(URI.create("http://127.0.0.1:8280/orders?page=2"));
    }

    @Test
    void pathsPastTheBoundAreStillExpandedRightButNotRemembered() {
        for (int i = 0; i < FixedPathUris.REMEMBERED + 10; i++) {
            assertThat(uris.expand("/path" + i)).isEqualTo(URI.create("http://127.0.0.1:8280/path" + i));
        }
        String late = "/path" + (FixedPathUris.REMEMBERED + 5);
        assertThat(uris.expand(late)).isNotSameAs(uris.expand(late)).isEqualTo(uris.expand(late));
    }
}
