package dev.agora.common.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/** Public reads are decided as Spring Security's own path matchers would decide them, without a token. */
class PublicReadsTest {

    private static final List<String> PATTERNS =
            List.of("/api/books", "/api/books/*", "/search/*", "/api/books/*/files", "/api/books/*/files/*");

    private final PublicReads publicReads = PublicReads.of(PATTERNS);
    private final RequestMatcher springSecurity = new OrRequestMatcher(PATTERNS.stream()
            .map(path ->
                    (RequestMatcher) PathPatternRequestMatcher.withDefaults().matcher(HttpMethod.GET, path))
            .toList());

    @Test
    void anAnonymousGetMatchesExactlyWhereSpringSecuritysPathMatchersDo() {
        List<String> paths = List.of(
                "/api/books",
                "/api/books/",
                "/api/books/1",
                "/api/books/1/",
                "/api/books/1/files",
                "/api/books/1/files/book.pdf",
                "/api/books/1/files/a/b",
                "/api/books/%31",
                "/api/books/a%20b/files/c%2Fd",
                "/api/orders",
                "/admin/books/1",
                "/search/distributed%20systems",
                "/search",
                "/",
                "/API/books/1");
        for (String path : paths) {
            for (String method : List.of("GET", "POST", "HEAD", "PUT")) {
                MockHttpServletRequest request = new MockHttpServletRequest(method, path);
                assertThat(publicReads.matches(request))
                        .as("%s %s", method, path)
                        .isEqualTo(springSecurity.matches(request));
            }
        }
        assertThat(publicReads.matches(new MockHttpServletRequest("GET", "/api/books/1")))
                .isTrue();
    }

    @Test
    void aReadWithAnyAuthorizationHeaderIsNotAnonymous() {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/books/1");
        request.addHeader("Authorization", "Bearer not-a-jwt");

        assertThat(publicReads.matches(request)).isFalse();
    }

    @Test
    void withinAContextPathThePathAfterItIsMatched() {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/shop/api/books/1");
        request.setContextPath("/shop");

        assertThat(publicReads.matches(request)).isTrue();
        assertThat(springSecurity.matches(request)).isTrue();
    }

    @Test
    void noPatternsMatchNothing() {
        assertThat(PublicReads.of(List.of()).matches(new MockHttpServletRequest("GET", "/api/books/1")))
                .isFalse();
    }
}
