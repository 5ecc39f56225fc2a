package dev.agora.frontend.raffle;

import dev.agora.common.api.Access;
import dev.agora.common.security.ServiceTokens;
import dev.agora.frontend.upstream.Tier;
import dev.agora.frontend.upstream.Upstream;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.service.annotation.GetExchange;
import tools.jackson.databind.JsonNode;

/**
 * The raffle's winners for everyone ({@link RaffleAccessRules}): every 100th confirmed buy across all frontends and
 * order replicas. The order tier owns them and counts the buys; this asks it with the frontend's own token.
 */
@RestController
@Tag(name = "raffle", description = "Every 100th confirmed buy is refunded")
class RaffleController {

    /** The order tier's page of winners (passed on as it is), for the API's description. */
    record Winner(long position, long orderId, long bookId, BigDecimal refunded, Instant wonAt) {}

    record WinnerPage(List<Winner> content, int page, int size, long totalElements) {}

    /** The order tier's winners, as this asks for them. */
    interface OrderRaffle {
        @GetExchange("/raffle/winners")
        JsonNode winners(
                @RequestHeader(HttpHeaders.AUTHORIZATION) String authorization,
                @RequestParam int page,
                @RequestParam int size);
    }

    private final Upstream upstream;
    private final OrderRaffle raffle;
    private final ServiceTokens serviceTokens;

    RaffleController(Upstream upstream, ServiceTokens serviceTokens) {
        this.upstream = upstream;
        this.raffle = upstream.client(Tier.ORDER, OrderRaffle.class);
        this.serviceTokens = serviceTokens;
    }

    /**
     * The order tier's page as it is: {@code {"content":[{"position","orderId","bookId","refunded","wonAt"}],
     * "page","size","totalElements"}}, in the order the winners won.
     */
    @GetMapping("/api/raffle/winners")
    @Access
    @Operation(
            operationId = "raffleWinners",
            summary = "The raffle's winners, in the order they won",
            responses =
                    @ApiResponse(
                            responseCode = "200",
                            description = "A page of winners",
                            content = @Content(schema = @Schema(implementation = WinnerPage.class))))
    JsonNode winners(
            @RequestParam(defaultValue = "0") @Min(0) @Max(100_000) int page,
            @RequestParam(defaultValue = "100") @Min(1) @Max(1000) int size) {
        String authorization = "Bearer " + serviceTokens.bearer();
        return upstream.call(Tier.ORDER, () -> raffle.winners(authorization, page, size));
    }
}
