package dev.agora.perf.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ArrivalScheduleTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void requestsAreDueAtFixedIntervalsFromTheStart() {
        ArrivalSchedule schedule = new ArrivalSchedule(1_000 * MS, 100);

        assertThat(schedule.intendedStartNanos(0)).isEqualTo(1_000 * MS);
        assertThat(schedule.intendedStartNanos(1)).isEqualTo(1_010 * MS);
        assertThat(schedule.intendedStartNanos(250)).isEqualTo(3_500 * MS);
    }

    /**
     * A 200 ms stall at request 10 of a 100/s schedule, served one at a time: a client that measures from
     * the moment it actually sent sees one slow request; measured from the intended times, the requests that
     * should have gone out during the stall carry the wait they suffered: 21 of them stay above 10 ms while
     * the queue drains (each catches up 9 ms on its 10 ms interval), plus the stalled one itself.
     */
    @Test
    void latencyFromIntendedStartChargesAStallToEveryRequestQueuedBehindIt() {
        ArrivalSchedule schedule = new ArrivalSchedule(0, 100);
        LatencyHistogram fromIntended = new LatencyHistogram();
        LatencyHistogram fromActualSend = new LatencyHistogram();
        long serverFreeAt = 0;
        for (int i = 0; i < 100; i++) {
            long intended = schedule.intendedStartNanos(i);
            long sent = Math.max(intended, serverFreeAt); // a single-connection client waits for the server
            long service = i == 10 ? 200 * MS : MS;
            long done = sent + service;
            serverFreeAt = done;
            fromIntended.recordNanos(schedule.latencyNanos(i, done));
            fromActualSend.recordNanos(done - sent);
        }

        assertThat(fromActualSend.percentileMillis(90)).isCloseTo(1.0, within(0.01));
        assertThat(fromActualSend.maxMillis()).isCloseTo(200, within(0.2));
        assertThat(fromIntended.percentileMillis(90)).isGreaterThan(50);
        assertThat(fromIntended.maxMillis()).isCloseTo(200, within(0.2));
        long queued = countAbove(fromIntended, 10);
        assertThat(queued).isEqualTo(22);
    }

    @Test
    void completionBeforeTheIntendedTimeIsNotNegative() {
        ArrivalSchedule schedule = new ArrivalSchedule(100 * MS, 10);
        assertThat(schedule.latencyNanos(0, 50 * MS)).isZero();
    }

    @Test
    void rateMustBePositive() {
        assertThatThrownBy(() -> new ArrivalSchedule(0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ArrivalSchedule(0, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }

    private static long countAbove(LatencyHistogram histogram, double millis) {
        long count = 0;
        for (var value : histogram.histogram().recordedValues()) {
            if (value.getValueIteratedTo() / 1e6 > millis) count += value.getCountAtValueIteratedTo();
        }
        return count;
    }
}
