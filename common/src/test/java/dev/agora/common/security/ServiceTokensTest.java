package dev.agora.common.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jwt.SignedJWT;
import dev.agora.common.security.testing.TestIssuer;
import java.net.ServerSocket;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.core.OAuth2AuthorizationException;

/** A service's own token, fetched over real HTTP from a token endpoint, past authorities that are down. */
class ServiceTokensTest {

    private static final TestIssuer ISSUER = new TestIssuer().registerClient("order-service", "s3cret-s3cret-s3cret");

    @AfterAll
    static void stop() {
        ISSUER.close();
    }

    @Test
    void aTokenComesFromTheNextAuthorityWhenTheFirstIsDownAndIsKeptForLaterCalls() throws Exception {
        var tokens = ServiceTokens.clientCredentials(
                "order-service", "s3cret-s3cret-s3cret", List.of(deadAuthority(), URI.create(ISSUER.url())));

        String first = tokens.bearer();

        SignedJWT jwt = SignedJWT.parse(first);
        assertThat(jwt.getJWTClaimsSet().getSubject()).isEqualTo("order-service");
        assertThat(jwt.getJWTClaimsSet().getStringClaim("scope")).isEqualTo(Roles.INTERNAL_SCOPE);
        assertThat(tokens.bearer()).as("kept until shortly before it expires").isEqualTo(first);
    }

    @Test
    void aWrongSecretIsRefusedAndNotRetriedElsewhere() {
        var tokens = ServiceTokens.clientCredentials(
                "order-service", "wrong", List.of(URI.create(ISSUER.url()), URI.create(ISSUER.url())));

        assertThatThrownBy(tokens::bearer).isInstanceOf(OAuth2AuthorizationException.class);
    }

    private static URI deadAuthority() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort());
        }
    }
}
