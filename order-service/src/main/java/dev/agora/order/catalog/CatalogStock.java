package dev.agora.order.catalog;

import dev.agora.common.security.TokenGuardFilter;
import dev.agora.order.order.Stock;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.retry.Retry;
import java.math.BigDecimal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * Reserves stock at the catalog over HTTP, load-balanced over the healthy replicas. A connect error, a
 * timeout or a 5xx is retried at once (the next attempt goes to the next replica); that is safe because
 * the catalog reserves at most once per order id. The circuit breaker sits outside the retry, so it counts
 * one failure per call that failed on every attempt, not one per dead replica.
 */
final class CatalogStock implements Stock {

    private static final Logger log = LoggerFactory.getLogger(CatalogStock.class);

    private final RestClient catalog;
    private final String internalToken;
    private final Retry retry;
    private final CircuitBreaker breaker;

    CatalogStock(RestClient catalog, String internalToken, Retry retry, CircuitBreaker breaker) {
        this.catalog = catalog;
        this.internalToken = internalToken;
        this.retry = retry;
        this.breaker = breaker;
        retry.getEventPublisher()
                .onRetry(event -> log.debug(
                        "Retrying reservation (attempt {}): {}",
                        event.getNumberOfRetryAttempts() + 1,
                        String.valueOf(event.getLastThrowable())));
    }

    record ReserveStock(long orderId, long bookId, int quantity) {}

    record Reservation(long orderId, String outcome, BigDecimal total) {}

    @Override
    public Answer reserve(long orderId, long bookId, int quantity) {
        try {
            return breaker.executeSupplier(
                    Retry.decorateSupplier(retry, () -> post(new ReserveStock(orderId, bookId, quantity))));
        } catch (CallNotPermittedException e) {
            return new Unavailable("circuit breaker open");
        } catch (RestClientException | IllegalStateException e) {
            // IllegalStateException: the load balancer knows no healthy replica right now.
            log.warn("Reservation for order {} got no answer from the catalog: {}", orderId, e.getMessage());
            return new Unavailable(e.getMessage());
        }
    }

    private Answer post(ReserveStock request) {
        return catalog.post()
                .uri("/internal/reservations")
                .header(TokenGuardFilter.INTERNAL_TOKEN_HEADER, internalToken)
                .body(request)
                .exchange((ignored, response) -> {
                    HttpStatus status =
                            HttpStatus.valueOf(response.getStatusCode().value());
                    if (status.is2xxSuccessful()) {
                        Reservation reservation = response.bodyTo(Reservation.class);
                        return "RESERVED".equals(reservation.outcome())
                                ? new Reserved(reservation.total())
                                : new OutOfStock();
                    }
                    return switch (status) {
                        case NOT_FOUND -> new UnknownBook();
                        case CONFLICT -> {
                            log.error("Catalog holds a different reservation for order {}", request.orderId());
                            yield new Conflicting();
                        }
                        default -> {
                            if (status.is5xxServerError()) {
                                throw new HttpServerErrorException(status, "catalog answered " + status);
                            }
                            // 400/401/403: a bug or a token mismatch; retrying cannot help, the sweeper will.
                            log.error("Catalog refused the reservation of order {}: {}", request.orderId(), status);
                            throw new HttpClientErrorException(status, "catalog answered " + status);
                        }
                    };
                });
    }
}
