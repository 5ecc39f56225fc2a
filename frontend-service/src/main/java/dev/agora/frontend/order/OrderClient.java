package dev.agora.frontend.order;

import dev.agora.common.client.CallSafety;
import dev.agora.common.web.WritingFrontend;
import dev.agora.frontend.upstream.Tier;
import dev.agora.frontend.upstream.Upstream;
import java.net.URI;
import tools.jackson.databind.JsonNode;

/**
 * The order tier over HTTP. Every call carries a bearer token: the caller's own, relayed, so the order service
 * knows whose order it is; or, for the classic anonymous buy, the frontend's service token.
 */
final class OrderClient {

    private final Upstream upstream;
    private final String advertisedUrl;

    OrderClient(Upstream upstream, URI advertisedUrl) {
        this.upstream = upstream;
        this.advertisedUrl = advertisedUrl.toString();
    }

    /** Safe to repeat on another replica: the idempotency key makes a repeat return the first outcome. */
    OrderView place(OrderRequest request, String idempotencyKey, String bearer) {
        return upstream.call(Tier.ORDER, CallSafety.IDEMPOTENT, replica -> replica.client()
                .post()
                .uri("/orders")
                .headers(h -> h.setBearerAuth(bearer))
                .header(PlacingOrder.IDEMPOTENCY_KEY, idempotencyKey)
                .header(WritingFrontend.HEADER, advertisedUrl)
                .body(request)
                .retrieve()
                .body(OrderView.class));
    }

    OrderView find(long orderId, String bearer) {
        return upstream.call(Tier.ORDER, CallSafety.IDEMPOTENT, replica -> replica.client()
                .get()
                .uri("/orders/{id}", orderId)
                .headers(h -> h.setBearerAuth(bearer))
                .retrieve()
                .body(OrderView.class));
    }

    /** The order tier's page as it is: {@code {"content":[...],"page","size","totalElements"}}. */
    JsonNode page(int page, int size, String bearer) {
        return upstream.call(Tier.ORDER, CallSafety.IDEMPOTENT, replica -> replica.client()
                .get()
                .uri(uri -> uri.path("/orders")
                        .queryParam("page", page)
                        .queryParam("size", size)
                        .build())
                .headers(h -> h.setBearerAuth(bearer))
                .retrieve()
                .body(JsonNode.class));
    }
}
