package dev.agora.common.security;

import java.util.Optional;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;

/** Who is calling, as the resource server's filter chain established it for this request. */
public final class Callers {

    private Callers() {}

    public static Optional<Authentication> current() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        return authentication instanceof JwtAuthenticationToken ? Optional.of(authentication) : Optional.empty();
    }

    /** The token's subject: the user a person or program acts for, or the client id of a calling service. */
    public static Optional<String> subject() {
        return current().map(Authentication::getName);
    }

    /** The raw bearer token of this request, to relay to the next tier on the caller's behalf. */
    public static Optional<String> bearerToken() {
        return current().map(a -> ((JwtAuthenticationToken) a).getToken().getTokenValue());
    }

    public static boolean hasRole(String role) {
        return has("ROLE_" + role);
    }

    public static boolean isService() {
        return has(Roles.INTERNAL_AUTHORITY);
    }

    private static boolean has(String authority) {
        return current().stream()
                .flatMap(a -> a.getAuthorities().stream())
                .map(GrantedAuthority::getAuthority)
                .anyMatch(authority::equals);
    }
}
