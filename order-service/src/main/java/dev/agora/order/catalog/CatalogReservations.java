package dev.agora.order.catalog;

import java.math.BigDecimal;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.annotation.HttpExchange;
import org.springframework.web.service.annotation.PostExchange;

/**
 * The catalog's reservations API (docs/internal-api.md), as this service calls it. A 4xx answer is thrown as
 * {@code HttpClientErrorException}; {@link CatalogStock} says what each means.
 */
@HttpExchange("/internal/reservations")
interface CatalogReservations {

    record ReserveStock(long orderId, long bookId, int quantity) {}

    record Reservation(long orderId, String outcome, BigDecimal total) {}

    /** Reserves stock for an order, or answers the reservation made for it before: at most once per order id. */
    @PostExchange
    Reservation reserve(
            @RequestHeader(HttpHeaders.AUTHORIZATION) String authorization, @RequestBody ReserveStock stock);

    /**
     * One request's answer in a batch: {@code status} 200 with the {@code reservation} the single call answers, else
     * the single call's status (its problem is not needed here).
     */
    record BatchEntry(int status, Reservation reservation) {}

    /**
     * Reserves stock for up to 64 orders in one call, each as {@link #reserve} would; one entry per request, in order.
     */
    @PostExchange("/batch")
    List<BatchEntry> reserveAll(
            @RequestHeader(HttpHeaders.AUTHORIZATION) String authorization, @RequestBody List<ReserveStock> stocks);

    /** The reservations decided for these orders; an order the catalog never decided is absent. */
    @GetExchange
    List<Reservation> decided(
            @RequestHeader(HttpHeaders.AUTHORIZATION) String authorization,
            @RequestParam("orderId") List<Long> orderIds);
}
