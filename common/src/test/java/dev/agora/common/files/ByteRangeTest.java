package dev.agora.common.files;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ByteRangeTest {

    @Test
    void oneRangeIsAPartCutAtTheEnd() {
        assertThat(ByteRange.of("bytes=0-0", 10)).isEqualTo(new ByteRange.Part(0, 0));
        assertThat(ByteRange.of("bytes=9-9", 10)).isEqualTo(new ByteRange.Part(9, 9));
        assertThat(ByteRange.of("bytes=2-5", 10)).isEqualTo(new ByteRange.Part(2, 5));
        assertThat(ByteRange.of("bytes=5-", 10)).isEqualTo(new ByteRange.Part(5, 9));
        assertThat(ByteRange.of("bytes=5-100", 10)).isEqualTo(new ByteRange.Part(5, 9));
        assertThat(ByteRange.of("bytes=-3", 10)).isEqualTo(new ByteRange.Part(7, 9));
        assertThat(ByteRange.of("bytes=-30", 10)).isEqualTo(new ByteRange.Part(0, 9));
        assertThat(ByteRange.of("BYTES = 1-2", 10)).isEqualTo(new ByteRange.Whole());
    }

    @Test
    void aRangeStartingPastTheEndIsUnsatisfiable() {
        assertThat(ByteRange.of("bytes=10-", 10)).isEqualTo(new ByteRange.Unsatisfiable());
        assertThat(ByteRange.of("bytes=10-20", 10)).isEqualTo(new ByteRange.Unsatisfiable());
        assertThat(ByteRange.of("bytes=-0", 10)).isEqualTo(new ByteRange.Unsatisfiable());
        assertThat(ByteRange.of("bytes=0-", 0)).isEqualTo(new ByteRange.Unsatisfiable());
    }

    @Test
    void whatDoesNotParseOrAsksForSeveralRangesGetsTheWholeFile() {
        assertThat(ByteRange.of(null, 10)).isEqualTo(new ByteRange.Whole());
        assertThat(ByteRange.of("bytes=0-1,4-5", 10)).isEqualTo(new ByteRange.Whole());
        assertThat(ByteRange.of("bytes=5-2", 10)).isEqualTo(new ByteRange.Whole());
        assertThat(ByteRange.of("bytes=a-b", 10)).isEqualTo(new ByteRange.Whole());
        assertThat(ByteRange.of("items=0-1", 10)).isEqualTo(new ByteRange.Whole());
        assertThat(ByteRange.of("bytes=-", 10)).isEqualTo(new ByteRange.Whole());
    }
}
