package dev.agora.frontend.proxy;

import dev.agora.frontend.upstream.Tier;
import dev.agora.frontend.upstream.Upstream;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Passthroughs: {@code /api/exchange/**} to the exchange as it is, and {@code /api/admin/books/**} to the
 * catalog's {@code /admin/books/**}, each with the caller's own bearer token: the tier checks who the caller is
 * (account owner, publisher) itself.
 */
@RestController
class ProxyController {

    private static final String ADMIN_PREFIX = "/api/admin/books";
    private static final List<String> CALLER = List.of(HttpHeaders.AUTHORIZATION);

    private final Forwarding forwarding;

    ProxyController(Upstream upstream) {
        this.forwarding = new Forwarding(upstream);
    }

    @RequestMapping({"/api/exchange", "/api/exchange/**"})
    ResponseEntity<byte[]> exchange(HttpServletRequest request, @RequestBody(required = false) byte[] body) {
        return forwarding.forward(Tier.EXCHANGE, request, rawPath(request), body, CALLER);
    }

    @RequestMapping({ADMIN_PREFIX, ADMIN_PREFIX + "/**"})
    ResponseEntity<byte[]> adminBooks(HttpServletRequest request, @RequestBody(required = false) byte[] body) {
        String target = "/admin/books" + rawPath(request).substring(ADMIN_PREFIX.length());
        return forwarding.forward(Tier.CATALOG, request, target, body, CALLER);
    }

    private static String rawPath(HttpServletRequest request) {
        return request.getRequestURI().substring(request.getContextPath().length());
    }
}
