package dev.agora.frontend.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.security.PublicReads;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.session.MapSessionRepository;
import org.springframework.session.web.http.SessionRepositoryFilter;

/** Against Spring Session's real filter: the mark must be the one its filter reads, or every read pays for it. */
class SessionlessPublicReadsTest {

    private final AtomicReference<HttpServletRequest> seen = new AtomicReference<>();

    private final HttpServlet endpoint = new HttpServlet() {
        @Override
        protected void service(HttpServletRequest request, HttpServletResponse response) {
            seen.set(request);
        }
    };

    private HttpServletRequest through(MockHttpServletRequest request) throws Exception {
        var sessions = new SessionRepositoryFilter<>(new MapSessionRepository(new ConcurrentHashMap<>()));
        var skip = new SessionlessPublicReads(PublicReads.of(List.of("/lookup/*", "/api/books/*")));
        new MockFilterChain(endpoint, skip, sessions).doFilter(request, new MockHttpServletResponse());
        return seen.get();
    }

    private static MockHttpServletRequest request(String method, String path) {
        var request = new MockHttpServletRequest(method, path);
        request.setServletPath(path);
        return request;
    }

    @Test
    void anAnonymousPublicReadPassesSpringSessionUnwrapped() throws Exception {
        HttpServletRequest request = through(request("GET", "/lookup/7"));
        assertThat(request.getAttribute(SessionRepositoryFilter.SESSION_REPOSITORY_ATTR))
                .isNull();
        assertThat(request).isInstanceOf(MockHttpServletRequest.class);
    }

    @Test
    void aPageARequestWithATokenAndAWriteStillGetTheirSession() throws Exception {
        var withToken = request("GET", "/api/books/7");
        withToken.addHeader("Authorization", "Bearer x");
        for (MockHttpServletRequest request :
                List.of(request("GET", "/books/7"), withToken, request("POST", "/lookup/7"))) {
            assertThat(through(request).getAttribute(SessionRepositoryFilter.SESSION_REPOSITORY_ATTR))
                    .as(request.getMethod() + " " + request.getRequestURI())
                    .isNotNull();
        }
    }
}
