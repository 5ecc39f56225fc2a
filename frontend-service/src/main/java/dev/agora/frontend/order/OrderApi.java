package dev.agora.frontend.order;

import dev.agora.common.web.WritingFrontend;
import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.annotation.PostExchange;
import tools.jackson.databind.JsonNode;

/** The order tier's API as the frontend calls it; every call carries a bearer token. */
interface OrderApi {

    /** Applied once per idempotency key, so it is repeated on another replica after any failure. */
    @PostExchange("/orders")
    OrderView place(
            @RequestHeader(HttpHeaders.AUTHORIZATION) String authorization,
            @RequestHeader(PlacingOrder.IDEMPOTENCY_KEY) String idempotencyKey,
            @RequestHeader(WritingFrontend.HEADER) String writingFrontend,
            @RequestBody OrderRequest request);

    @GetExchange("/orders/{id}")
    OrderView find(@RequestHeader(HttpHeaders.AUTHORIZATION) String authorization, @PathVariable long id);

    /** The order tier's page as it is: {@code {"content":[...],"page","size","totalElements"}}. */
    @GetExchange("/orders")
    JsonNode page(
            @RequestHeader(HttpHeaders.AUTHORIZATION) String authorization,
            @RequestParam int page,
            @RequestParam int size);
}
