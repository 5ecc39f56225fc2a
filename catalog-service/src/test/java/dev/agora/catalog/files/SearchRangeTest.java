package dev.agora.catalog.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The upper end of a name prefix's range in the name index: above every name that starts with the prefix. */
class SearchRangeTest {

    @Test
    void theLastCodePointIsRaisedOrDroppedWhenItCannotBe() {
        assertThat(FileIndex.above("abc")).isEqualTo("abd");
        assertThat(FileIndex.above("a\uD7FF")).as("past the surrogates").isEqualTo("a\uE000");
        assertThat(FileIndex.above("\uD83D\uDE00")).isEqualTo("\uD83D\uDE01");
        assertThat(FileIndex.above("a" + Character.toString(Character.MAX_CODE_POINT)))
                .isEqualTo("b");
        assertThat(FileIndex.above(Character.toString(Character.MAX_CODE_POINT)))
                .isNull();
    }

    @Test
    void everyNameStartingWithThePrefixLiesBelowIt() {
        Random random = new Random(31);
        int[] alphabet = {'a', 'z', '~', 0x7F, 0xE9, 0xFFFF, 0x1F600, Character.MAX_CODE_POINT, 0xD7FF, 0xE000};
        for (int i = 0; i < 20_000; i++) {
            String prefix = text(random, alphabet, 1 + random.nextInt(4));
            String name = prefix + text(random, alphabet, random.nextInt(4));
            String above = FileIndex.above(prefix);
            if (above == null) continue;
            assertThat(compareCodePoints(name, above))
                    .as("%s below %s", name, above)
                    .isNegative();
            assertThat(compareCodePoints(prefix, above)).isNegative();
        }
    }

    private static String text(Random random, int[] alphabet, int length) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) text.appendCodePoint(alphabet[random.nextInt(alphabet.length)]);
        return text.toString();
    }

    /** The order of the strings' UTF-8 bytes, as PostgreSQL's text_pattern_ops compares them. */
    private static int compareCodePoints(String a, String b) {
        return java.util.Arrays.compareUnsigned(
                a.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                b.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
