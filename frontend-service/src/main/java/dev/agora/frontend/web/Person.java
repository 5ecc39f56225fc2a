package dev.agora.frontend.web;

import dev.agora.common.security.Roles;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;

/** Who is looking at a page, for its header and for what it offers: {@code null} when nobody is signed in. */
public record Person(String name, Set<String> authorities) {

    static Person of(Authentication authentication) {
        if (authentication == null
                || !authentication.isAuthenticated()
                || authentication instanceof AnonymousAuthenticationToken) return null;
        return new Person(
                authentication.getName(),
                authentication.getAuthorities().stream()
                        .map(GrantedAuthority::getAuthority)
                        .collect(Collectors.toUnmodifiableSet()));
    }

    public boolean customer() {
        return has(Roles.CUSTOMER);
    }

    public boolean trader() {
        return has(Roles.TRADER) || admin();
    }

    public boolean publisher() {
        return has(Roles.PUBLISHER) || admin();
    }

    public boolean admin() {
        return has(Roles.ADMIN);
    }

    /** May see an order list: their own as a customer, everyone's as an admin. */
    public boolean seesOrders() {
        return customer() || admin();
    }

    private boolean has(String role) {
        return authorities.contains("ROLE_" + role);
    }
}
