package dev.agora.common.client;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.web.util.DefaultUriBuilderFactory;
import org.springframework.web.util.UriBuilder;
import org.springframework.web.util.UriBuilderFactory;

/**
 * A replica's {@link UriBuilderFactory}: Spring's {@link DefaultUriBuilderFactory} on the replica's base URL, which
 * remembers what a template without variables expands to. A buy's calls between tiers use fixed paths
 * ({@code /orders}, {@code /internal/reservations}); expanding one anew parses the base URL and the template into
 * URI components and builds a new URI on every call, about as much as the rest of a call's client-side work.
 * RestClient still sees the template, so {@code http.client.requests} keeps its {@code uri} tag. A template with
 * variables is expanded each time, and at most {@link #REMEMBERED} fixed ones are remembered.
 */
final class FixedPathUris implements UriBuilderFactory {

    static final int REMEMBERED = 64;

    private final DefaultUriBuilderFactory expanding;
    private final Map<String, URI> fixed = new ConcurrentHashMap<>();

    FixedPathUris(URI base) {
        this.expanding = new DefaultUriBuilderFactory(base.toString());
    }

    @Override
    public URI expand(String uriTemplate, Map<String, ?> uriVariables) {
        return uriVariables.isEmpty() ? fixed(uriTemplate) : expanding.expand(uriTemplate, uriVariables);
    }

    @Override
    public URI expand(String uriTemplate, Object... uriVariables) {
        return uriVariables.length == 0 ? fixed(uriTemplate) : expanding.expand(uriTemplate, uriVariables);
    }

    private URI fixed(String uriTemplate) {
        URI known = fixed.get(uriTemplate);
        if (known != null) return known;
        URI expanded = expanding.expand(uriTemplate);
        if (fixed.size() < REMEMBERED) fixed.put(uriTemplate, expanded);
        return expanded;
    }

    @Override
    public UriBuilder uriString(String uriTemplate) {
        return expanding.uriString(uriTemplate);
    }

    @Override
    public UriBuilder builder() {
        return expanding.builder();
    }
}
