package dev.agora.common.security;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.server.resource.BearerTokenErrors;
import org.springframework.security.oauth2.server.resource.authentication.BearerTokenAuthenticationToken;
import org.springframework.security.oauth2.server.resource.web.BearerTokenResolver;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;
import org.springframework.security.web.authentication.AuthenticationConverter;

/**
 * The bearer token of a request's {@code Authorization} header, read as Spring Security's {@link
 * DefaultBearerTokenResolver} reads it with its defaults (no token in the query or the body): a header that does not
 * start with {@code bearer} (any case) carries none; one that does must be {@code Bearer}, one space and an RFC 6750
 * {@code b64token}, or it is refused as malformed. Spring Security checks that grammar with a case-insensitive regular
 * expression over the whole token, on every call that carries one (a buy crosses three services), and it was the
 * largest single cost of a cached token's check; this class checks it with a loop. {@code HeaderBearerTokensTest}
 * holds both to the same answers.
 *
 * <p>As the resource server's {@link AuthenticationConverter} it hands the token on without the request's
 * {@code WebAuthenticationDetails} (remote address and session id), which nothing here reads: looking up the session
 * id costs every token-bearing request of the frontend a pass through Spring Session's request wrapper.
 */
public final class HeaderBearerTokens implements BearerTokenResolver, AuthenticationConverter {

    private static final String SCHEME = "bearer ";

    /** The characters of a {@code b64token} before its padding, by code (all ASCII). */
    private static final boolean[] TOKEN_CHARACTERS = new boolean[128];

    static {
        for (char c = 'a'; c <= 'z'; c++) TOKEN_CHARACTERS[c] = true;
        for (char c = 'A'; c <= 'Z'; c++) TOKEN_CHARACTERS[c] = true;
        for (char c = '0'; c <= '9'; c++) TOKEN_CHARACTERS[c] = true;
        for (char c : "-._~+/".toCharArray()) TOKEN_CHARACTERS[c] = true;
    }

    @Override
    public BearerTokenAuthenticationToken convert(HttpServletRequest request) {
        String token = resolve(request);
        return token == null ? null : new BearerTokenAuthenticationToken(token);
    }

    /** Whether the request's {@code Authorization} header names the bearer scheme, well-formed or not. */
    public static boolean offersBearerToken(HttpServletRequest request) {
        String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
        return authorization != null && startsWithAsciiIgnoringCase(authorization, "bearer");
    }

    @Override
    public String resolve(HttpServletRequest request) {
        if (!offersBearerToken(request)) return null;
        String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (!startsWithAsciiIgnoringCase(authorization, SCHEME) || !isB64Token(authorization, SCHEME.length())) {
            throw new OAuth2AuthenticationException(BearerTokenErrors.invalidToken("Bearer token is malformed"));
        }
        return authorization.substring(SCHEME.length());
    }

    /** @param lowerCase the expected text in lower case (letters and spaces only) */
    private static boolean startsWithAsciiIgnoringCase(String text, String lowerCase) {
        if (text.length() < lowerCase.length()) return false;
        for (int i = 0; i < lowerCase.length(); i++) {
            char c = text.charAt(i);
            char expected = lowerCase.charAt(i);
            if (c != expected && !(c >= 'A' && c <= 'Z' && (char) (c + ('a' - 'A')) == expected)) return false;
        }
        return true;
    }

    /** {@code 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="} from {@code from} to the end. */
    private static boolean isB64Token(String text, int from) {
        int i = from;
        while (i < text.length() && isTokenCharacter(text.charAt(i))) i++;
        if (i == from) return false;
        while (i < text.length() && text.charAt(i) == '=') i++;
        return i == text.length();
    }

    private static boolean isTokenCharacter(char c) {
        return c < TOKEN_CHARACTERS.length && TOKEN_CHARACTERS[c];
    }
}
