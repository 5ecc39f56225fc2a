package dev.agora.frontend.proxy;

import dev.agora.frontend.upstream.Tier;
import dev.agora.frontend.upstream.Upstream;
import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Passthroughs: {@code /api/exchange/**} to the exchange as it is, and {@code /api/admin/books/**} to the
 * catalog's {@code /admin/books/**}, each with the caller's own bearer token: the tier checks who the caller is
 * (account owner, publisher) itself. Exchange order placements carry an idempotency key (the client's, or one this
 * frontend gives them), which makes them safe to repeat on another attempt.
 */
@RestController
@Hidden // described as their owners describe them: ProxiedRoutesDocumentation
class ProxyController {

    private static final String ADMIN_PREFIX = "/api/admin/books";
    private static final List<String> CALLER = List.of(HttpHeaders.AUTHORIZATION);
    /**
     * An order placement at the exchange: the frontend gives it an idempotency key when the client did not, so that
     * a placement whose answer was lost (its leader froze or died while it was sent) may be sent again, to the same
     * leader or its successor, without placing a second order.
     */
    private static final Pattern ORDER_PLACEMENT = Pattern.compile("^/api/exchange/accounts/[^/]+/orders/?$");

    private final Forwarding forwarding;

    ProxyController(Upstream upstream) {
        this.forwarding = new Forwarding(upstream);
    }

    @RequestMapping({"/api/exchange", "/api/exchange/**"})
    ResponseEntity<byte[]> exchange(HttpServletRequest request, @RequestBody(required = false) byte[] body) {
        String path = rawPath(request);
        if (HttpMethod.POST.matches(request.getMethod())
                && ORDER_PLACEMENT.matcher(path).matches()) {
            // The exchange places an order once per Idempotency-Key; the client's own key is passed on as it is.
            String key = request.getHeader(Forwarding.IDEMPOTENCY_KEY);
            return forwarding.forward(
                    Tier.EXCHANGE,
                    request,
                    path,
                    body,
                    CALLER,
                    key != null ? key : UUID.randomUUID().toString());
        }
        return forwarding.forward(Tier.EXCHANGE, request, path, body, CALLER, null);
    }

    @RequestMapping({ADMIN_PREFIX, ADMIN_PREFIX + "/**"})
    ResponseEntity<byte[]> adminBooks(HttpServletRequest request, @RequestBody(required = false) byte[] body) {
        String target = "/admin/books" + rawPath(request).substring(ADMIN_PREFIX.length());
        return forwarding.forward(Tier.CATALOG, request, target, body, CALLER, null);
    }

    private static String rawPath(HttpServletRequest request) {
        return request.getRequestURI().substring(request.getContextPath().length());
    }
}
