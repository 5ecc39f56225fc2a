package dev.agora.order.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.security.ServiceTokens;
import dev.agora.order.order.Stock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Without a service token (no frontend issues one) the catalog cannot be asked: a reservation is unavailable, so
 * the order stays PENDING for recovery, and a read leaves PENDING orders as they are. The catalog is not called.
 */
class CatalogStockTokenTest {

    private static final ServiceTokens NO_TOKEN = () -> {
        throw new IllegalStateException("no authorization server answers");
    };

    /** No catalog client: any call to the catalog would fail the test with a NullPointerException. */
    private final ReservationSender sender = new ReservationSender(null, null, NO_TOKEN, new SimpleMeterRegistry());

    private final CatalogStock stock = new CatalogStock(null, null, NO_TOKEN, sender);

    @AfterEach
    void stopSender() throws InterruptedException {
        sender.close();
    }

    @Test
    void aReservationWithoutATokenIsUnavailable() {
        Stock.Answer answer = stock.reserve(1, 1, 1);

        assertThat(answer).isInstanceOfSatisfying(Stock.Unavailable.class, unavailable -> assertThat(unavailable.why())
                .contains("no service token", "no authorization server answers"));
    }

    @Test
    void aReadOfDecisionsWithoutATokenKnowsNothing() {
        assertThat(stock.decided(List.of(1L, 2L))).isInstanceOf(Stock.NotKnown.class);
    }
}
