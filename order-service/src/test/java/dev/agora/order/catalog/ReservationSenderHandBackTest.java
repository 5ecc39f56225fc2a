package dev.agora.order.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.order.catalog.CatalogReservations.BatchEntry;
import dev.agora.order.catalog.CatalogReservations.Reservation;
import dev.agora.order.catalog.CatalogReservations.ReserveStock;
import dev.agora.order.order.Stock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.math.BigDecimal;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.client.circuitbreaker.CircuitBreaker;
import org.springframework.web.client.ResourceAccessException;

/**
 * What the sender does with a batch call's answer, against a scripted catalog client (the real catalogs' failures are
 * {@code ReservationSenderTest}'s and {@code CatalogOutageTest}'s): two buys' own calls are held at the catalog so that
 * a third buy is handed to the sender; its batch call fails, or answers entries, and each buy still gets its own
 * answer, a buy the batch left unanswered from its own single call.
 */
class ReservationSenderHandBackTest {

    private static final BigDecimal TOTAL = new BigDecimal("12.50");

    /** The breaker's contract without its state: a failure goes to the fallback. */
    private static final CircuitBreaker PASSING = new CircuitBreaker() {
        @Override
        public <T> T run(java.util.function.Supplier<T> toRun, Function<Throwable, T> fallback) {
            try {
                return toRun.get();
            } catch (RuntimeException failed) {
                return fallback.apply(failed);
            }
        }
    };

    private final CountDownLatch held = new CountDownLatch(2);
    private final CountDownLatch release = new CountDownLatch(1);
    private final List<Long> singleCalls = new CopyOnWriteArrayList<>();
    private final List<List<Long>> batchCalls = new CopyOnWriteArrayList<>();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private Function<List<ReserveStock>, List<BatchEntry>> batchAnswer;

    private final CatalogReservations catalog = new CatalogReservations() {
        @Override
        public Reservation reserve(String authorization, ReserveStock stock) {
            singleCalls.add(stock.orderId());
            if (stock.orderId() <= 2) {
                held.countDown();
                await(release);
            }
            return new Reservation(stock.orderId(), "RESERVED", TOTAL);
        }

        @Override
        public List<BatchEntry> reserveAll(String authorization, List<ReserveStock> stocks) {
            batchCalls.add(stocks.stream().map(ReserveStock::orderId).toList());
            return batchAnswer.apply(stocks);
        }

        @Override
        public List<Reservation> decided(String authorization, List<Long> orderIds) {
            throw new UnsupportedOperationException();
        }
    };

    private final ReservationSender sender = new ReservationSender(catalog, PASSING, () -> "token", meters);
    private final CatalogStock stock = new CatalogStock(catalog, PASSING, () -> "token", sender);

    @AfterEach
    void stop() throws InterruptedException {
        release.countDown();
        sender.close();
    }

    @Test
    void aBatchCallThatFailsHandsItsReservationBackAndTheBuyCallsAlone() throws Exception {
        batchAnswer = stocks -> {
            throw new ResourceAccessException("Read timed out");
        };

        Stock.Answer answer = thirdBuyBehindTwoHeld();

        assertThat(batchCalls).containsExactly(List.of(3L));
        assertThat(singleCalls).contains(3L);
        assertThat(answer).isEqualTo(new Stock.Reserved(TOTAL));
        assertThat(handedBack("batch-failed")).isEqualTo(1);
    }

    @Test
    void aBatchEntryOf503IsSentAloneAndTheOthersAreTheBatchsAnswers() throws Exception {
        batchAnswer = stocks -> List.of(new BatchEntry(503, null));
        assertThat(thirdBuyBehindTwoHeld()).isEqualTo(new Stock.Reserved(TOTAL));
        assertThat(singleCalls).contains(3L);
        assertThat(handedBack("not-answered")).isEqualTo(1);

        batchAnswer = stocks -> List.of(new BatchEntry(404, null));
        assertThat(stock.reserve(4, 1, 1)).isEqualTo(new Stock.UnknownBook());
        batchAnswer = stocks -> List.of(new BatchEntry(409, null));
        assertThat(stock.reserve(5, 1, 1)).isEqualTo(new Stock.Conflicting());
        batchAnswer = stocks -> List.of(new BatchEntry(200, new Reservation(6, "OUT_OF_STOCK", null)));
        assertThat(stock.reserve(6, 1, 1)).isEqualTo(new Stock.OutOfStock());

        assertThat(batchCalls).containsExactly(List.of(3L), List.of(4L), List.of(5L), List.of(6L));
        assertThat(singleCalls).as("answered by the batch: no single call").doesNotContain(4L, 5L, 6L);
    }

    /** Orders 1 and 2 call alone and are held; order 3 is handed to the sender while they are. */
    private Stock.Answer thirdBuyBehindTwoHeld() throws Exception {
        // Threads of their own: the common pool may have a single thread on a small machine.
        Thread.ofPlatform().daemon().start(() -> stock.reserve(1, 1, 1));
        Thread.ofPlatform().daemon().start(() -> stock.reserve(2, 1, 1));
        assertThat(held.await(5, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Stock.Answer> third = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> third.complete(stock.reserve(3, 1, 1)));
        return third.get(5, TimeUnit.SECONDS);
    }

    private double handedBack(String reason) {
        return meters.get("agora.orders.reservations.alone")
                .tag("reason", reason)
                .counter()
                .count();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
