package dev.agora.exchange.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agora.exchange.matching.Rejection;
import dev.agora.exchange.matching.Result;
import dev.agora.exchange.matching.StoredOrders;
import dev.agora.exchange.sequencer.ExchangeUnavailableException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The readers of closed orders are a bounded pool behind a bounded queue: what does not fit is refused and counted. */
class OrderHistoryTest {

    @Test
    void readsBeyondThePoolAndItsQueueAreRefusedAndCounted() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        StoredOrders slow = (orderId, upTo, max) -> {
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Optional.empty();
        };
        try (OrderHistory history = new OrderHistory(slow, 100, 1, 2)) {
            Result stored = new Result.StoredOrder(5, "1", false, 0);
            CompletableFuture<Result> reading = history.complete(stored);
            // One reader busy: two wait in the queue, the fourth is refused.
            Thread.sleep(100);
            CompletableFuture<Result> queued1 = history.complete(stored);
            CompletableFuture<Result> queued2 = history.complete(stored);
            CompletableFuture<Result> refused = history.complete(stored);

            assertThatThrownBy(() -> refused.get(1, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(ExchangeUnavailableException.class)
                    .hasMessageContaining("exchange is overloaded");
            assertThat(history.rejected()).isEqualTo(1);
            assertThat(history.queued()).isEqualTo(2);

            release.countDown();
            for (CompletableFuture<Result> done : java.util.List.of(reading, queued1, queued2)) {
                assertThat(done.get(5, TimeUnit.SECONDS)).isEqualTo(Result.rejected(Rejection.UNKNOWN_ORDER));
            }
            assertThat(history.queued()).isZero();
        }
    }

    @Test
    void answersThatNeedNothingStoredCompleteAtOnce() {
        try (OrderHistory history = new OrderHistory(StoredOrders.NONE, 100, 1, 1)) {
            Result opened = new Result.OrderOpened(3);
            assertThat(history.complete(opened)).isCompletedWithValue(opened);
        }
    }
}
