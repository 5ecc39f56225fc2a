package dev.agora.frontend.web;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.security.web.csrf.CookieCsrfTokenRepository;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.security.web.csrf.CsrfTokenRepository;
import org.springframework.security.web.csrf.HttpSessionCsrfTokenRepository;

/**
 * CSRF tokens kept where the caller's state already is: in the session of a signed-in person (as before), and in a
 * cookie for a caller without a session, which is everyone on the sign-in page. Showing the sign-in form therefore
 * stores nothing on the server: sessions are made only by signing in, which is rate-limited, so anonymous visits
 * cannot fill the shared sessions table. The cookie is HttpOnly (the form carries the token; no script reads it),
 * SameSite=Lax and Secure like the session cookie, and signing in removes it (Spring Security saves a null token on
 * authentication, while the request still has no session).
 */
final class SessionOrCookieCsrfTokens implements CsrfTokenRepository {

    static final String COOKIE = "AGORA_CSRF";

    private final HttpSessionCsrfTokenRepository sessions = new HttpSessionCsrfTokenRepository();
    private final CookieCsrfTokenRepository cookies = new CookieCsrfTokenRepository();

    /** @param secure whether the cookie is Secure: as the session cookie ({@code server.servlet.session.cookie}) */
    SessionOrCookieCsrfTokens(boolean secure) {
        cookies.setCookieName(COOKIE);
        // One header name whichever holds the token, the one pages have always been given.
        cookies.setHeaderName("X-CSRF-TOKEN");
        cookies.setCookieCustomizer(cookie -> cookie.secure(secure).sameSite("Lax"));
    }

    private CsrfTokenRepository of(HttpServletRequest request) {
        return request.getSession(false) != null ? sessions : cookies;
    }

    @Override
    public CsrfToken generateToken(HttpServletRequest request) {
        return of(request).generateToken(request);
    }

    @Override
    public void saveToken(CsrfToken token, HttpServletRequest request, HttpServletResponse response) {
        if (token != null) {
            of(request).saveToken(token, request, response);
            return;
        }
        // Removal (signing in or out): from wherever it is, without making a session or setting a cookie for nothing.
        sessions.saveToken(null, request, response);
        if (hasCookie(request)) cookies.saveToken(null, request, response);
    }

    @Override
    public CsrfToken loadToken(HttpServletRequest request) {
        return of(request).loadToken(request);
    }

    private static boolean hasCookie(HttpServletRequest request) {
        Cookie[] all = request.getCookies();
        if (all == null) return false;
        for (Cookie cookie : all) {
            if (COOKIE.equals(cookie.getName())) return true;
        }
        return false;
    }
}
