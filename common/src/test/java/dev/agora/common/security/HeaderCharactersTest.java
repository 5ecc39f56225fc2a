package dev.agora.common.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.security.web.firewall.StrictHttpFirewall;

class HeaderCharactersTest {

    @Test
    void everyCodePointIsJudgedAsTheShippedFirewallJudgesIt() {
        List<String> disagreements = new ArrayList<>();
        for (int codePoint = 0; codePoint <= Character.MAX_CODE_POINT; codePoint++) {
            String alone = Character.toString(codePoint);
            String inText = "Bearer ab" + alone + "cd";
            for (String text : List.of(alone, inText)) {
                if (HeaderCharacters.allowed(text, false) != StrictHttpFirewall.ALLOWED_HEADER_NAMES.test(text)) {
                    disagreements.add("name U+" + Integer.toHexString(codePoint));
                }
                if (HeaderCharacters.allowed(text, true) != StrictHttpFirewall.ALLOWED_HEADER_VALUES.test(text)) {
                    disagreements.add("value U+" + Integer.toHexString(codePoint));
                }
            }
        }
        assertThat(disagreements).isEmpty();
    }

    @Test
    void aTabIsAllowedInValuesOnlyAndOtherControlCharactersNowhere() {
        assertThat(HeaderCharacters.allowed("a\tb", true)).isTrue();
        assertThat(HeaderCharacters.allowed("a\tb", false)).isFalse();
        assertThat(HeaderCharacters.allowed("a\r\nX-Injected: 1", true)).isFalse();
        assertThat(HeaderCharacters.allowed("a\u007fb", true)).isFalse();
        assertThat(HeaderCharacters.allowed("", true)).isTrue();
    }

    @Test
    void unpairedSurrogatesAreJudgedAsTheShippedFirewallJudgesThem() {
        for (String text : List.of("\uD800", "a\uDC00b", "\uD83D\uDE00", "\uDBFF\uDFFF")) {
            assertThat(HeaderCharacters.allowed(text, true))
                    .as(text)
                    .isEqualTo(StrictHttpFirewall.ALLOWED_HEADER_VALUES.test(text));
        }
    }
}
