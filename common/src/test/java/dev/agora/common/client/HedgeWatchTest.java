package dev.agora.common.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The watch that acts for hedged calls when their hedge delay passes, busy or after a quiet spell. */
class HedgeWatchTest {

    /** A call due once, at {@code dueAtNanos}; records when the watch acted for it. */
    static final class OneShot implements HedgeWatch.Watched {
        final long dueAtNanos;
        final AtomicLong actedAtNanos = new AtomicLong();
        final CountDownLatch acted = new CountDownLatch(1);
        private volatile long dueNanos;

        OneShot(long delayMillis) {
            dueAtNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMillis);
            dueNanos = dueAtNanos;
        }

        @Override
        public long dueNanos() {
            return dueNanos;
        }

        @Override
        public void due(long nowNanos) {
            actedAtNanos.set(System.nanoTime());
            acted.countDown();
            dueNanos = HedgeWatch.NEVER;
        }
    }

    @Test
    void aCallWatchedAfterAQuietSpellIsActedForAtItsDueTimeNotBefore() throws InterruptedException {
        HedgeWatch watch = HedgeWatch.INSTANCE; // started by now, if no other test started it
        Thread.sleep(1_500); // longer than the watch stays awake without calls: it sleeps until woken
        OneShot call = new OneShot(50);
        watch.watch(call, TimeUnit.MILLISECONDS.toNanos(50));

        assertThat(call.acted.await(5, TimeUnit.SECONDS))
                .as("the watch woke for it")
                .isTrue();
        assertThat(call.actedAtNanos.get()).isGreaterThanOrEqualTo(call.dueAtNanos);
        watch.unwatch(call); // as a call does once it is done, so that the watch can go quiet again
    }

    @Test
    void callsWatchedWhileTheWatchIsBusyAreEachActedForAtTheirDueTime() throws InterruptedException {
        OneShot[] calls = new OneShot[20];
        for (int i = 0; i < calls.length; i++) {
            calls[i] = new OneShot(10 + 5L * i);
            HedgeWatch.INSTANCE.watch(calls[i], TimeUnit.MILLISECONDS.toNanos(10));
            Thread.sleep(2);
        }
        for (OneShot call : calls) {
            assertThat(call.acted.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(call.actedAtNanos.get()).isGreaterThanOrEqualTo(call.dueAtNanos);
            HedgeWatch.INSTANCE.unwatch(call);
        }
    }

    @Test
    void anUnwatchedCallIsNotActedFor() throws InterruptedException {
        OneShot call = new OneShot(30);
        HedgeWatch.INSTANCE.watch(call, TimeUnit.MILLISECONDS.toNanos(30));
        HedgeWatch.INSTANCE.unwatch(call);

        assertThat(call.acted.await(300, TimeUnit.MILLISECONDS)).isFalse();
    }
}
