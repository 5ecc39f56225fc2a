package dev.agora.frontend.identity;

import org.springframework.security.oauth2.server.authorization.OAuth2Authorization;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;

/**
 * Issued tokens are self-contained JWTs that live for minutes, and the only grant is client credentials, which
 * leaves nothing to look up later (no code, no refresh token): so nothing is stored, and a token request costs no
 * write. The authorization server's default keeps every authorization in a map that never shrinks. When a grant
 * with state arrives (authorization code for the web pages), this must become {@code JdbcOAuth2AuthorizationService}.
 */
final class TokensNotKept implements OAuth2AuthorizationService {

    @Override
    public void save(OAuth2Authorization authorization) {}

    @Override
    public void remove(OAuth2Authorization authorization) {}

    @Override
    public OAuth2Authorization findById(String id) {
        return null;
    }

    @Override
    public OAuth2Authorization findByToken(String token, OAuth2TokenType tokenType) {
        return null;
    }
}
