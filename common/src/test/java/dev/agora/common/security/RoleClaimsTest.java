package dev.agora.common.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.oauth2.jwt.Jwt;

/** Roles are read from a token as Spring Security's own claim accessor reads them, without its conversions. */
class RoleClaimsTest {

    private final RoleClaims roleClaims = new RoleClaims();

    @Test
    void everyRoleOfTheListBecomesARoleAuthorityAndEveryScopeAScopeAuthority() {
        Jwt token = token(List.of("customer", "Trader"), "internal files");
        assertThat(authorities(token))
                .containsExactlyInAnyOrder("SCOPE_internal", "SCOPE_files", "ROLE_CUSTOMER", "ROLE_TRADER");
    }

    @Test
    void aClaimOfOneStringIsReadAsTheClaimAccessorReadsIt() {
        for (Object claim : List.of("admin", "admin, trader", "admin,trader,")) {
            Jwt token = token(claim, null);
            List<String> expected = token.getClaimAsStringList(Roles.CLAIM).stream()
                    .map(role -> "ROLE_" + role.toUpperCase(Locale.ROOT))
                    .toList();
            assertThat(authorities(token)).as("roles %s", claim).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void aTokenWithoutRolesHasOnlyItsScopes() {
        assertThat(authorities(token(null, "internal"))).containsExactly("SCOPE_internal");
    }

    private List<String> authorities(Jwt token) {
        return roleClaims.convert(token).stream()
                .map(GrantedAuthority::getAuthority)
                .toList();
    }

    private static Jwt token(Object roles, String scope) {
        Jwt.Builder builder = Jwt.withTokenValue("t")
                .header("alg", "RS256")
                .subject("someone")
                .issuedAt(Instant.now())
                .expiresAt(Instant.now().plusSeconds(60));
        if (roles != null) builder.claim(Roles.CLAIM, roles);
        if (scope != null) builder.claim("scope", scope);
        return builder.build();
    }
}
