package dev.agora.order;

import dev.agora.common.security.testing.TestIssuer;

/**
 * The module's stand-in for the frontends' authorization server (real JWTs, JWKS and token endpoint over HTTP),
 * shared by the order service under test and the catalog processes it calls, and the tokens the tests call with.
 * Both services get their own tokens from it with the client credentials of the local profile.
 */
final class Tokens {

    static final String AUTHORIZATION = "Authorization";
    static final String ORDER_CLIENT = "order-service";

    static final TestIssuer ISSUER = new TestIssuer()
            .registerClient(ORDER_CLIENT, "local-dev-order-service-secret-0123456789abcdef")
            .registerClient("catalog-service", "local-dev-catalog-service-secret-0123456789abcdef");

    private Tokens() {}

    /** {@code Authorization} values, each a fresh token (a test run may outlast one's ten minutes). */
    static String customer(String subject) {
        return "Bearer " + ISSUER.token(subject, "customer");
    }

    static String admin() {
        return "Bearer " + ISSUER.token("admin-ann", "admin");
    }

    static String publisher() {
        return "Bearer " + ISSUER.token("publisher-pat", "publisher");
    }

    /** A service's token: the frontend's for anonymous classic buys, the order service's for reservations. */
    static String service(String clientId) {
        return "Bearer " + ISSUER.serviceToken(clientId);
    }
}
