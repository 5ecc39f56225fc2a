package dev.agora.common.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class HedgeBudgetTest {

    @Test
    void startsFullAndDeniesOnceTheBurstIsSpent() {
        HedgeBudget budget = new HedgeBudget(10, 3);
        assertThat(budget.trySpend()).isTrue();
        assertThat(budget.trySpend()).isTrue();
        assertThat(budget.trySpend()).isTrue();
        assertThat(budget.trySpend()).isFalse();
        assertThat(budget.available()).isZero();
    }

    @Test
    void tenAnswersEarnOneHedgeAtTenPercent() {
        HedgeBudget budget = new HedgeBudget(10, 1);
        assertThat(budget.trySpend()).isTrue();
        for (int i = 0; i < 9; i++) budget.answered();
        assertThat(budget.trySpend()).as("nine tenths of a hedge").isFalse();
        budget.answered();
        assertThat(budget.trySpend()).isTrue();
        assertThat(budget.trySpend()).isFalse();
    }

    @Test
    void neverHoldsMoreThanItsBurst() {
        HedgeBudget budget = new HedgeBudget(50, 2);
        for (int i = 0; i < 1_000; i++) budget.answered();
        assertThat(budget.available()).isEqualTo(2);
    }

    @Test
    void noShareAndNoBurstMeansNoHedges() {
        HedgeBudget budget = new HedgeBudget(0, 0);
        for (int i = 0; i < 100; i++) budget.answered();
        assertThat(budget.trySpend()).isFalse();
    }

    @Test
    void rejectsShareOutsideZeroToHundredAndNegativeBurst() {
        assertThatThrownBy(() -> new HedgeBudget(101, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HedgeBudget(-1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HedgeBudget(10, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void concurrentCallersNeverSpendMoreThanWasEarned() throws InterruptedException {
        HedgeBudget budget = new HedgeBudget(10, 5);
        int threads = 8;
        int answersEach = 2_000;
        AtomicInteger spent = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < answersEach; i++) {
                    budget.answered();
                    if (budget.trySpend()) spent.incrementAndGet();
                }
            }));
        }
        start.countDown();
        for (Thread worker : workers) worker.join();

        long earned = threads * answersEach / 10;
        assertThat(spent.get() + budget.available()).isLessThanOrEqualTo(5 + earned);
        assertThat(spent.get()).as("every whole hedge earned was spendable").isGreaterThanOrEqualTo((int) earned);
    }
}
