package dev.agora.common.security;

import org.springframework.security.web.firewall.StrictHttpFirewall;

/**
 * Spring Security's {@link StrictHttpFirewall} with its own character rules for header names, header values and
 * parameter names, checked by a loop over the code points instead of the regular expressions it ships with
 * ({@code [\p{IsAssigned}&&[^\p{IsControl}]]*}, and a tab also allowed in values). The firewall checks a header each
 * time anything reads it, and the {@code Authorization} header is read several times per request (a bearer token's
 * resolver and the DPoP matcher each read it), each read matched against a Unicode-property expression.
 * {@code FirewallCharactersTest} holds the loops to the expressions' answers for every code point. Every other rule of
 * the strict firewall (paths, methods, hosts) is its own, unchanged.
 */
public final class FirewallCharacters {

    private FirewallCharacters() {}

    /** The strict firewall with these checks in place of its expressions. */
    public static StrictHttpFirewall strictFirewall() {
        StrictHttpFirewall firewall = new StrictHttpFirewall();
        firewall.setAllowedHeaderNames(FirewallCharacters::isName);
        firewall.setAllowedHeaderValues(FirewallCharacters::isHeaderValue);
        firewall.setAllowedParameterNames(FirewallCharacters::isName);
        return firewall;
    }

    /** Only assigned code points, none of them a control character. */
    public static boolean isName(String text) {
        return allAllowed(text, false);
    }

    /** Only assigned code points, none of them a control character other than the tab. */
    public static boolean isHeaderValue(String text) {
        return allAllowed(text, true);
    }

    private static boolean allAllowed(String text, boolean tabAllowed) {
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c >= 0x20 && c < 0x7F) {
                i++;
                continue;
            }
            int codePoint = text.codePointAt(i);
            boolean allowed = Character.isDefined(codePoint)
                    && (!Character.isISOControl(codePoint) || (tabAllowed && codePoint == '\t'));
            if (!allowed) return false;
            i += Character.charCount(codePoint);
        }
        return true;
    }
}
