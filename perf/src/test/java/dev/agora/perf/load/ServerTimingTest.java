package dev.agora.perf.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.perf.stats.LatencyHistogram;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerTimingTest {

    @Test
    void parsesDurationsAndDescriptionsPerTier() {
        ServerTiming timing = ServerTiming.parse("catalog;dur=0.8, order;dur=2.1, cache;desc=hit");

        assertThat(timing.metrics().keySet()).containsExactly("catalog", "order", "cache");
        assertThat(timing.durationMs("catalog")).contains(0.8);
        assertThat(timing.durationMs("order")).contains(2.1);
        assertThat(timing.durationMs("cache")).isEmpty();
        assertThat(timing.description("cache")).contains("hit");
        assertThat(timing.cacheHit()).isTrue();
    }

    @Test
    void acceptsQuotedDescriptionsSpacesAndAnyParameterOrder() {
        ServerTiming timing = ServerTiming.parse(" cache ; desc=\"miss\" ; dur=0.05 ,catalog;dur=1.5");

        assertThat(timing.description("cache")).contains("miss");
        assertThat(timing.durationMs("cache")).contains(0.05);
        assertThat(timing.cacheHit()).isFalse();
        assertThat(timing.durationMs("catalog")).contains(1.5);
    }

    @Test
    void ignoresWhatItCannotRead() {
        assertThat(ServerTiming.parse(null).metrics()).isEmpty();
        assertThat(ServerTiming.parse("  ").metrics()).isEmpty();
        ServerTiming odd = ServerTiming.parse("catalog;dur=abc, ;dur=1, order;dur=-3, x;noequals");
        assertThat(odd.metrics().keySet()).containsExactly("catalog", "order", "x");
        assertThat(odd.durationMs("catalog")).isEmpty();
        assertThat(odd.durationMs("order")).isEmpty();
        assertThat(odd.cacheHit()).isFalse();
    }

    @Test
    void firstMetricOfANameWins() {
        assertThat(ServerTiming.parse("catalog;dur=1, catalog;dur=9").durationMs("catalog"))
                .contains(1.0);
    }

    @Test
    void durationsAreRecordedUnderTheirPrefixedNamesAndDescriptionsAreNot() {
        Map<String, LatencyHistogram> into = new LinkedHashMap<>();

        ServerTiming.parse("order.db;dur=1.5, cache;desc=off, total;dur=2").recordDurations(into, "buy|");
        ServerTiming.parse("total;dur=4").recordDurations(into, "buy|");

        assertThat(into.keySet()).containsExactly("buy|order.db", "buy|total");
        assertThat(into.get("buy|order.db").count()).isEqualTo(1);
        assertThat(into.get("buy|total").count()).isEqualTo(2);
        assertThat(into.get("buy|total").maxMillis()).isBetween(3.99, 4.01);
    }
}
