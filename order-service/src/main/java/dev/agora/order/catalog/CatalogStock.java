package dev.agora.order.catalog;

import dev.agora.common.client.CallSafety;
import dev.agora.common.client.ReplicaClients;
import dev.agora.common.client.ServiceUnavailableException;
import dev.agora.common.security.ServiceTokens;
import dev.agora.common.timing.ServerTiming;
import dev.agora.order.order.Stock;
import java.math.BigDecimal;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatus;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * Reserves stock at the catalog over HTTP through common's {@link ReplicaClients}: a refused connection, a timeout
 * or a 5xx is repeated at once on another replica, and a reservation with no answer after the hedge delay is
 * also sent to the other replica (first answer wins). Both are safe because the catalog reserves at most once
 * per order id and answers a repeat with the first outcome. The frontend a buy came through travels on as a header
 * of the request being handled (common's {@code WritingFrontend}), not as an argument.
 *
 * <p>Every call carries the order service's own client-credentials token ({@code Authorization: Bearer}, scope
 * {@code internal}), taken before the call and the same for all its attempts. When no token can be had (no
 * frontend issues one), the catalog is as good as unreachable: the reservation is {@link Unavailable}, the order
 * stays PENDING and recovery drives it later.
 */
final class CatalogStock implements Stock {

    private static final Logger log = LoggerFactory.getLogger(CatalogStock.class);
    /** This call's entry in the order service's {@code Server-Timing}; the catalog's own go under it. */
    private static final String TIMING_NAME = "catalog";

    private final ReplicaClients catalog;
    private final String serviceId;
    private final ServiceTokens tokens;

    CatalogStock(ReplicaClients catalog, String serviceId, ServiceTokens tokens) {
        this.catalog = catalog;
        this.serviceId = serviceId;
        this.tokens = tokens;
    }

    record ReserveStock(long orderId, long bookId, int quantity) {}

    record Reservation(long orderId, String outcome, BigDecimal total) {}

    private static final ParameterizedTypeReference<List<Reservation>> RESERVATIONS =
            new ParameterizedTypeReference<>() {};

    @Override
    public Answer reserve(long orderId, long bookId, int quantity) {
        ReserveStock request = new ReserveStock(orderId, bookId, quantity);
        String token;
        try {
            token = tokens.bearer();
        } catch (RuntimeException e) {
            log.warn("No service token to reserve stock for order {}: {}", orderId, e.getMessage());
            return new Unavailable("no service token: " + e.getMessage());
        }
        try {
            return call(client -> post(client, token, request));
        } catch (ServiceUnavailableException | RestClientException e) {
            log.warn("Reservation for order {} got no answer from the catalog: {}", orderId, e.getMessage());
            return new Unavailable(e.getMessage());
        }
    }

    @Override
    public Decisions decided(List<Long> orderIds) {
        String token;
        try {
            token = tokens.bearer();
        } catch (RuntimeException e) {
            log.warn("No service token to read the reservations of orders {}: {}", orderIds, e.getMessage());
            return new NotKnown("no service token: " + e.getMessage());
        }
        try {
            return call(client -> new Known(findAll(client, token, orderIds).stream()
                    .collect(Collectors.toMap(Reservation::orderId, CatalogStock::answer))));
        } catch (ServiceUnavailableException | RestClientException e) {
            log.warn("Reservations of orders {} could not be read at the catalog: {}", orderIds, e.getMessage());
            return new NotKnown(e.getMessage());
        }
    }

    /**
     * Every call to the catalog: idempotent (a reservation is decided once per order id, a read changes nothing),
     * so it may be hedged and repeated on another replica; timed as this service's {@code catalog} entry.
     */
    private <T> T call(Function<RestClient, T> request) {
        return ServerTiming.call(
                TIMING_NAME,
                () -> catalog.call(serviceId, CallSafety.IDEMPOTENT, replica -> request.apply(replica.client())));
    }

    private List<Reservation> findAll(RestClient catalog, String token, List<Long> orderIds) {
        return catalog.get()
                .uri(uri -> uri.path("/internal/reservations")
                        .queryParam("orderId", orderIds.toArray())
                        .build())
                .headers(headers -> headers.setBearerAuth(token))
                .exchange((ignored, response) -> {
                    HttpStatus status =
                            HttpStatus.valueOf(response.getStatusCode().value());
                    if (status.is2xxSuccessful()) return response.bodyTo(RESERVATIONS);
                    throw unexpected(status);
                });
    }

    /** A 5xx is a failed attempt, repeated on another replica; a 4xx is the caller's mistake and is not. */
    private static RuntimeException unexpected(HttpStatus status) {
        return status.is5xxServerError()
                ? new HttpServerErrorException(status, "catalog answered " + status)
                : new HttpClientErrorException(status, "catalog answered " + status);
    }

    private static Answer answer(Reservation reservation) {
        return "RESERVED".equals(reservation.outcome()) ? new Reserved(reservation.total()) : new OutOfStock();
    }

    private Answer post(RestClient catalog, String token, ReserveStock request) {
        return catalog.post()
                .uri("/internal/reservations")
                .headers(headers -> headers.setBearerAuth(token))
                .body(request)
                .exchange((ignored, response) -> {
                    HttpStatus status =
                            HttpStatus.valueOf(response.getStatusCode().value());
                    if (status.is2xxSuccessful()) {
                        return answer(response.bodyTo(Reservation.class));
                    }
                    return switch (status) {
                        case NOT_FOUND -> new UnknownBook();
                        case CONFLICT -> {
                            log.error("Catalog holds a different reservation for order {}", request.orderId());
                            yield new Conflicting();
                        }
                        default -> {
                            // 400/401/403: a bug or a token mismatch; retrying cannot help, the sweeper will.
                            if (!status.is5xxServerError()) {
                                log.error("Catalog refused the reservation of order {}: {}", request.orderId(), status);
                            }
                            throw unexpected(status);
                        }
                    };
                });
    }
}
