package dev.agora.frontend.order;

import dev.agora.frontend.upstream.Tier;
import dev.agora.frontend.upstream.Upstream;
import java.net.URI;
import tools.jackson.databind.JsonNode;

/**
 * The order tier over HTTP ({@link OrderApi}). Every call carries a bearer token: the caller's own, relayed, so the
 * order service knows whose order it is; or, for the classic anonymous buy, the frontend's service token.
 */
final class OrderClient {

    private final Upstream upstream;
    private final OrderApi orders;
    private final String advertisedUrl;

    OrderClient(Upstream upstream, URI advertisedUrl) {
        this.upstream = upstream;
        this.orders = upstream.client(Tier.ORDER, OrderApi.class);
        this.advertisedUrl = advertisedUrl.toString();
    }

    OrderView place(OrderRequest request, String idempotencyKey, String bearer) {
        return upstream.call(
                Tier.ORDER, () -> orders.place("Bearer " + bearer, idempotencyKey, advertisedUrl, request));
    }

    OrderView find(long orderId, String bearer) {
        return upstream.call(Tier.ORDER, () -> orders.find("Bearer " + bearer, orderId));
    }

    JsonNode page(int page, int size, String bearer) {
        return upstream.call(Tier.ORDER, () -> orders.page("Bearer " + bearer, page, size));
    }
}
