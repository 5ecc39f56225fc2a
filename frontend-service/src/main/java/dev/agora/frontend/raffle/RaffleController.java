package dev.agora.frontend.raffle;

import dev.agora.common.client.CallSafety;
import dev.agora.common.security.ServiceTokens;
import dev.agora.frontend.upstream.Tier;
import dev.agora.frontend.upstream.Upstream;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * The raffle's winners for everyone ({@link RaffleAccessRules}): every 100th confirmed buy across all frontends and
 * order replicas. The order tier owns them and counts the buys; this asks it with the frontend's own token.
 */
@RestController
class RaffleController {

    private final Upstream upstream;
    private final ServiceTokens serviceTokens;

    RaffleController(Upstream upstream, ServiceTokens serviceTokens) {
        this.upstream = upstream;
        this.serviceTokens = serviceTokens;
    }

    /**
     * The order tier's page as it is: {@code {"content":[{"position","orderId","bookId","refunded","wonAt"}],
     * "page","size","totalElements"}}, in the order the winners won.
     */
    @GetMapping("/api/raffle/winners")
    JsonNode winners(
            @RequestParam(defaultValue = "0") @Min(0) @Max(100_000) int page,
            @RequestParam(defaultValue = "100") @Min(1) @Max(1000) int size) {
        String bearer = serviceTokens.bearer();
        return upstream.call(Tier.ORDER, CallSafety.IDEMPOTENT, replica -> replica.client()
                .get()
                .uri(uri -> uri.path("/raffle/winners")
                        .queryParam("page", page)
                        .queryParam("size", size)
                        .build())
                .headers(h -> h.setBearerAuth(bearer))
                .retrieve()
                .body(JsonNode.class));
    }
}
