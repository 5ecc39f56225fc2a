package dev.agora.frontend.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.security.PublicReads;
import jakarta.servlet.http.Cookie;
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
class SessionlessRequestsTest {

    private final AtomicReference<HttpServletRequest> seen = new AtomicReference<>();

    private final HttpServlet endpoint = new HttpServlet() {
        @Override
        protected void service(HttpServletRequest request, HttpServletResponse response) {
            seen.set(request);
        }
    };

    private HttpServletRequest through(MockHttpServletRequest request) throws Exception {
        var sessions = new SessionRepositoryFilter<>(new MapSessionRepository(new ConcurrentHashMap<>()));
        var skip = new SessionlessRequests(
                PublicReads.of(List.of("/lookup/*", "/api/books/*")), WebSecurityConfiguration.PAGE_PATHS);
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
    void aCallOfTheTokenApiPassesSpringSessionUnwrapped() throws Exception {
        for (String path : List.of("/api/orders", "/api/books/7", "/buy/3", "/bookshelf", "/orders/7")) {
            var call = request("POST", path);
            call.addHeader("Authorization", "bearer x");
            call.setCookies(new Cookie("SESSION", "abc"));
            HttpServletRequest request = through(call);
            assertThat(request.getAttribute(SessionRepositoryFilter.SESSION_REPOSITORY_ATTR))
                    .as(path)
                    .isNull();
            assertThat(request).isInstanceOf(MockHttpServletRequest.class);
        }
    }

    @Test
    void aPageAPageWithATokenAnotherSchemeAndAWriteStillGetTheirSession() throws Exception {
        var pageWithToken = request("POST", "/books/7/buy");
        pageWithToken.addHeader("Authorization", "Bearer x");
        var pagesDirectoryWithToken = request("GET", "/trade");
        pagesDirectoryWithToken.addHeader("Authorization", "Bearer x");
        var basic = request("POST", "/api/orders");
        basic.addHeader("Authorization", "Basic dXNlcjpwYXNz");
        for (MockHttpServletRequest request : List.of(
                request("GET", "/books/7"),
                pageWithToken,
                pagesDirectoryWithToken,
                basic,
                request("POST", "/lookup/7"))) {
            assertThat(through(request).getAttribute(SessionRepositoryFilter.SESSION_REPOSITORY_ATTR))
                    .as(request.getMethod() + " " + request.getRequestURI())
                    .isNotNull();
        }
    }
}
