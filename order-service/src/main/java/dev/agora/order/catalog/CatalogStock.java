package dev.agora.order.catalog;

import dev.agora.common.security.ServiceTokens;
import dev.agora.common.timing.ServerTiming;
import dev.agora.order.catalog.CatalogReservations.Reservation;
import dev.agora.order.catalog.CatalogReservations.ReserveStock;
import dev.agora.order.order.Stock;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.client.circuitbreaker.CircuitBreaker;
import org.springframework.http.HttpStatus;
import org.springframework.web.client.HttpClientErrorException;

/**
 * Reserves stock at the catalog through {@link CatalogReservations}, a {@code @LoadBalanced} client: a refused
 * connection, a timeout, a reset or a 5xx is repeated at once on another replica by Spring Cloud LoadBalancer
 * ({@code spring.cloud.loadbalancer.retry.retry-on-all-operations}). That is safe for every call made here: the
 * catalog reserves at most once per order id and answers a repeat with the first outcome, and a read changes
 * nothing. Each call runs through Spring Cloud CircuitBreaker (the catalog's Resilience4j breaker and bulkhead); a
 * call it cannot complete is {@link Unavailable} (or, for a read, {@link NotKnown}), and the order stays PENDING
 * for recovery. The frontend a buy came through travels on as a header of the request being handled (common's
 * {@code WritingFrontend}), not as an argument.
 *
 * <p>Every call carries the order service's own client-credentials token ({@code Authorization: Bearer}, scope
 * {@code internal}), taken before the call and the same for all its attempts. When no token can be had (no
 * frontend issues one), the catalog is as good as unreachable: the reservation is {@link Unavailable}.
 */
final class CatalogStock implements Stock {

    private static final Logger log = LoggerFactory.getLogger(CatalogStock.class);
    /** This call's entry in the order service's {@code Server-Timing}; the catalog's own go under it. */
    static final String TIMING_NAME = "catalog";

    private final CatalogReservations catalog;
    private final CircuitBreaker calls;
    private final ServiceTokens tokens;
    private final ReservationSender sender;

    CatalogStock(CatalogReservations catalog, CircuitBreaker calls, ServiceTokens tokens, ReservationSender sender) {
        this.catalog = catalog;
        this.calls = calls;
        this.tokens = tokens;
        this.sender = sender;
    }

    /**
     * Alone on this thread while fewer than two catalog calls are under way, else through the {@link ReservationSender}
     * in a batch call; a reservation the batch did not answer is sent alone here.
     */
    @Override
    public Answer reserve(long orderId, long bookId, int quantity) {
        ReserveStock request = new ReserveStock(orderId, bookId, quantity);
        return sender.reserve(request, () -> reserveAlone(request));
    }

    private Answer reserveAlone(ReserveStock request) {
        long orderId = request.orderId();
        String authorization;
        try {
            authorization = "Bearer " + tokens.bearer();
        } catch (RuntimeException e) {
            log.warn("No service token to reserve stock for order {}: {}", orderId, e.getMessage());
            return new Unavailable("no service token: " + e.getMessage());
        }
        return call(() -> answer(catalog.reserve(authorization, request)), failed -> refused(orderId, failed));
    }

    /** Why the catalog reserved nothing: its 4xx answers mean something; anything else left the outcome open. */
    private static Answer refused(long orderId, Throwable failed) {
        if (failed instanceof HttpClientErrorException answered) {
            Answer decided = refusal(orderId, answered.getStatusCode().value());
            if (decided != null) return decided;
            // 400/401/403: a bug or a token mismatch; retrying cannot help, the sweeper will.
            log.error("Catalog refused the reservation of order {}: {}", orderId, answered.getStatusCode());
        } else {
            log.warn("Reservation for order {} got no answer from the catalog: {}", orderId, failed.toString());
        }
        return new Unavailable(String.valueOf(failed.getMessage()));
    }

    /**
     * What the catalog's refusal of a reservation means for the order, also of an entry of a batch call: a 404 (the
     * book is unknown) or a 409 (the order id holds another reservation); null for any other status.
     */
    static Answer refusal(long orderId, int status) {
        if (status == HttpStatus.NOT_FOUND.value()) return new UnknownBook();
        if (status == HttpStatus.CONFLICT.value()) {
            log.error("Catalog holds a different reservation for order {}", orderId);
            return new Conflicting();
        }
        return null;
    }

    @Override
    public Decisions decided(List<Long> orderIds) {
        String authorization;
        try {
            authorization = "Bearer " + tokens.bearer();
        } catch (RuntimeException e) {
            log.warn("No service token to read the reservations of orders {}: {}", orderIds, e.getMessage());
            return new NotKnown("no service token: " + e.getMessage());
        }
        return this.<Decisions>call(
                () -> new Known(catalog.decided(authorization, orderIds).stream()
                        .collect(Collectors.toMap(Reservation::orderId, CatalogStock::answer))),
                failed -> {
                    log.warn(
                            "Reservations of orders {} could not be read at the catalog: {}",
                            orderIds,
                            failed.toString());
                    return new NotKnown(String.valueOf(failed.getMessage()));
                });
    }

    /** Every call to the catalog, timed as this service's {@code catalog} entry. */
    private <T> T call(Supplier<T> request, Function<Throwable, T> failed) {
        return ServerTiming.call(TIMING_NAME, () -> calls.run(request, failed));
    }

    static Answer answer(Reservation reservation) {
        return "RESERVED".equals(reservation.outcome()) ? new Reserved(reservation.total()) : new OutOfStock();
    }
}
