package dev.agora.common.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.server.resource.web.BearerTokenResolver;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;

/** A bearer token is found, or refused as malformed, exactly where Spring Security's own resolver does it. */
class HeaderBearerTokensTest {

    private final BearerTokenResolver ours = new HeaderBearerTokens();
    private final BearerTokenResolver springSecurity = new DefaultBearerTokenResolver();

    @Test
    void answersAsSpringSecuritysResolverForHandPickedHeaders() {
        List<String> headers = new ArrayList<>(List.of(
                "Bearer abc",
                "bearer abc",
                "BEARER abc",
                "bEaReR a-b.c_d~e+f/g==",
                "Bearer abc=",
                "Bearer abc=d",
                "Bearer =",
                "Bearer ",
                "Bearer",
                "bearer",
                "Bearerabc",
                "Bearer  abc",
                "Bearer abc ",
                "Bearer\tabc",
                "Bearer ab c",
                "Bearer abc\n",
                "Bearer ab\u00e9c",
                "Bearer \u212abc",
                "Basic dXNlcjpwYXNz",
                "DPoP abc",
                "",
                "b",
                "Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJjdXN0b21lciJ9.c2lnbmF0dXJl"));
        headers.add(null);
        for (String header : headers) assertSameAnswer(header);
    }

    @Test
    void answersAsSpringSecuritysResolverForRandomHeaders() {
        Random random = new Random(28);
        String alphabet = "aZ09-._~+/= \t\u00e9\u0130Bbearer";
        for (int i = 0; i < 20_000; i++) {
            StringBuilder header =
                    new StringBuilder(random.nextInt(4) == 0 ? "" : random.nextBoolean() ? "Bearer " : "bEARER ");
            int length = random.nextInt(12);
            for (int j = 0; j < length; j++) header.append(alphabet.charAt(random.nextInt(alphabet.length())));
            assertSameAnswer(header.toString());
        }
    }

    @Test
    void theTokenIsEverythingAfterTheScheme() {
        assertThat(ours.resolve(request("Bearer a.b.c=="))).isEqualTo("a.b.c==");
        assertThat(ours.resolve(request(null))).isNull();
    }

    @Test
    void asTheResourceServersConverterItHandsOnTheTokenAndNothingOfTheRequest() {
        var converter = new HeaderBearerTokens();
        var authentication = converter.convert(request("Bearer a.b.c=="));
        assertThat(authentication.getToken()).isEqualTo("a.b.c==");
        assertThat(authentication.getDetails()).isNull();
        assertThat(authentication.isAuthenticated()).isFalse();
        assertThat(converter.convert(request(null))).isNull();
        assertThat(converter.convert(request("Basic dXNlcjpwYXNz"))).isNull();
    }

    private void assertSameAnswer(String header) {
        assertThat(answer(ours, header)).as("Authorization: %s", header).isEqualTo(answer(springSecurity, header));
    }

    private static String answer(BearerTokenResolver resolver, String header) {
        try {
            return "token " + resolver.resolve(request(header));
        } catch (OAuth2AuthenticationException refused) {
            return "refused " + refused.getError().getErrorCode() + ": "
                    + refused.getError().getDescription();
        }
    }

    private static MockHttpServletRequest request(String authorization) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/orders");
        if (authorization != null) request.addHeader("Authorization", authorization);
        return request;
    }
}
