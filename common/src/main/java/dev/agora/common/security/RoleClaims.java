package dev.agora.common.security;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import org.springframework.core.convert.converter.Converter;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationConverter;
import org.springframework.security.oauth2.server.resource.authentication.JwtGrantedAuthoritiesConverter;

/**
 * Turns a token's {@code roles} claim into {@code ROLE_*} authorities and its scopes into {@code SCOPE_*}. The claim
 * is read as the JSON list it is, not through {@link Jwt#getClaimAsStringList}, whose conversion service cost more
 * than the rest of a remembered token's check; a claim that is one value is read as that method reads it, one
 * role.
 */
public final class RoleClaims implements Converter<Jwt, Collection<GrantedAuthority>> {

    private final JwtGrantedAuthoritiesConverter scopes = new JwtGrantedAuthoritiesConverter();

    public static JwtAuthenticationConverter authenticationConverter() {
        JwtAuthenticationConverter converter = new JwtAuthenticationConverter();
        converter.setJwtGrantedAuthoritiesConverter(new RoleClaims());
        return converter;
    }

    @Override
    public Collection<GrantedAuthority> convert(Jwt jwt) {
        List<GrantedAuthority> authorities = new ArrayList<>(scopes.convert(jwt));
        Object roles = jwt.getClaims().get(Roles.CLAIM);
        if (roles instanceof Collection<?> names) {
            for (Object role : names) {
                if (role != null) authorities.add(role(role.toString()));
            }
        } else if (roles != null) {
            authorities.add(role(roles.toString()));
        }
        return authorities;
    }

    private static GrantedAuthority role(String name) {
        return new SimpleGrantedAuthority("ROLE_" + name.toUpperCase(Locale.ROOT));
    }
}
