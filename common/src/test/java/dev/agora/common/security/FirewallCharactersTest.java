package dev.agora.common.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.StrictHttpFirewall;

/** The firewall's character checks answer as Spring Security's regular expressions do, for every code point. */
class FirewallCharactersTest {

    @Test
    void everyCodePointIsAllowedOrRefusedAsSpringSecurityDecides() {
        int differences = 0;
        StringBuilder first = new StringBuilder();
        for (int codePoint = 0; codePoint <= Character.MAX_CODE_POINT; codePoint++) {
            String text = "a" + Character.toString(codePoint) + "b";
            if (differs(text)) {
                if (differences++ == 0) first.append(Integer.toHexString(codePoint));
            }
        }
        assertThat(differences)
                .as("code points decided differently, the first: U+%s", first)
                .isZero();
    }

    @Test
    void surrogatesAloneOrPairedAndEmptyTextAreDecidedAsSpringSecurityDecides() {
        for (String text : List.of(
                "",
                "\uD83D\uDE00",
                "\uD83D",
                "\uDE00",
                "x\uD83D",
                "\uDE00\uD83D",
                "\uDBFF\uDFFF",
                "\uD83D\uDE00\u0000")) {
            assertThat(differs(text))
                    .as("%s", text.codePoints().boxed().toList())
                    .isFalse();
        }
    }

    @Test
    void theFirewallRefusesAControlCharacterInAHeaderAndKeepsItsPathRules() {
        StrictHttpFirewall firewall = FirewallCharacters.strictFirewall();
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/books/1");
        request.addHeader("X-Note", "a\u0007b");
        request.addHeader("X-Tab", "a\tb");
        var firewalled = firewall.getFirewalledRequest(request);

        assertThat(firewalled.getHeader("X-Tab")).isEqualTo("a\tb");
        assertThatThrownBy(() -> firewalled.getHeader("X-Note")).isInstanceOf(RequestRejectedException.class);
        assertThatThrownBy(() -> firewall.getFirewalledRequest(new MockHttpServletRequest("GET", "/a;b")))
                .isInstanceOf(RequestRejectedException.class);
    }

    private static boolean differs(String text) {
        return differs(StrictHttpFirewall.ALLOWED_HEADER_NAMES, FirewallCharacters::isName, text)
                || differs(StrictHttpFirewall.ALLOWED_PARAMETER_NAMES, FirewallCharacters::isName, text)
                || differs(StrictHttpFirewall.ALLOWED_HEADER_VALUES, FirewallCharacters::isHeaderValue, text);
    }

    private static boolean differs(Predicate<String> springSecurity, Predicate<String> ours, String text) {
        return springSecurity.test(text) != ours.test(text);
    }
}
