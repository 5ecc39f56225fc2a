package dev.agora.perf.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TenMillisecondBucketsTest {

    private static long ms(long millis) {
        return TimeUnit.MILLISECONDS.toNanos(millis);
    }

    @Test
    void bucketsAreClosedOnTheRightLikeTheSeeds() {
        assertThat(TenMillisecondBuckets.bucketOf(0)).isZero();
        assertThat(TenMillisecondBuckets.bucketOf(ms(10))).isZero(); // [0, 10]
        assertThat(TenMillisecondBuckets.bucketOf(ms(10) + 1)).isEqualTo(1); // (10, 20]
        assertThat(TenMillisecondBuckets.bucketOf(ms(20))).isEqualTo(1);
        assertThat(TenMillisecondBuckets.bucketOf(ms(20) + 1)).isEqualTo(2);
        assertThat(TenMillisecondBuckets.bucketOf(ms(60))).isEqualTo(5); // (50, 60]
        assertThat(TenMillisecondBuckets.bucketOf(ms(61))).isEqualTo(6);
    }

    @Test
    void labelsMatchTheSeedsRanges() {
        assertThat(TenMillisecondBuckets.label(0)).isEqualTo("[0, 10]");
        assertThat(TenMillisecondBuckets.label(1)).isEqualTo("(10, 20]");
        assertThat(TenMillisecondBuckets.label(5)).isEqualTo("(50, 60]");
    }

    @Test
    void countsAndModeAndAtLeastTheSeedsSixBuckets() {
        TenMillisecondBuckets buckets = new TenMillisecondBuckets();
        buckets.recordNanos(ms(3));
        buckets.recordNanos(ms(25));
        buckets.recordNanos(ms(22));
        buckets.recordNanos(ms(30));

        assertThat(buckets.buckets()).hasSize(6);
        assertThat(buckets.buckets().get(0).count()).isEqualTo(1);
        assertThat(buckets.buckets().get(2).count()).isEqualTo(3);
        assertThat(buckets.mode().label()).isEqualTo("(20, 30]");
    }

    @Test
    void growsForSlowRequestsAndMergesExactly() {
        TenMillisecondBuckets one = new TenMillisecondBuckets();
        one.recordNanos(ms(95));
        TenMillisecondBuckets two = new TenMillisecondBuckets();
        two.recordNanos(ms(95));
        two.recordNanos(ms(1));

        one.add(two);

        assertThat(one.buckets()).hasSize(10);
        assertThat(one.buckets().get(9).label()).isEqualTo("(90, 100]");
        assertThat(one.buckets().get(9).count()).isEqualTo(2);
        assertThat(one.buckets().get(0).count()).isEqualTo(1);
        assertThat(one.buckets().stream()
                        .mapToLong(TenMillisecondBuckets.Bucket::count)
                        .sum())
                .isEqualTo(3);
    }

    @Test
    void modePrefersTheLowerBucketOnATie() {
        TenMillisecondBuckets buckets = new TenMillisecondBuckets();
        buckets.recordNanos(ms(15));
        buckets.recordNanos(ms(5));

        assertThat(buckets.mode().index()).isZero();
    }
}
