package dev.agora.common.security;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.annotation.web.configuration.WebSecurityCustomizer;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.firewall.StrictHttpFirewall;

/**
 * Spring Security's {@link StrictHttpFirewall}, as shipped, with one setting: its header check. The firewall checks
 * every header name and value each time anything reads it (the bearer token alone is read several times per request)
 * against a regular expression ({@code [\p{IsAssigned}&&[^\p{IsControl}]]*}, for values with a tab allowed);
 * profiles of a buy put that match at 5-8% of each service's CPU, a character at a time through the regex engine over
 * a JWT of some 800 characters. This is the same rule as a plain loop: every character assigned and not a control
 * character, printable ASCII decided without a table lookup. Everything else the firewall refuses (encoded slashes,
 * dot segments, semicolons, {@code //}, parameters, methods, host names) stays as shipped.
 */
@AutoConfiguration(after = AgoraSecurityAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
public class HeaderCharacters {

    @Bean
    @ConditionalOnMissingBean(HttpFirewall.class)
    WebSecurityCustomizer headerCharactersChecked() {
        StrictHttpFirewall firewall = new StrictHttpFirewall();
        firewall.setAllowedHeaderNames(name -> allowed(name, false));
        firewall.setAllowedHeaderValues(value -> allowed(value, true));
        return web -> web.httpFirewall(firewall);
    }

    /**
     * Whether every character of {@code text} is assigned in Unicode and not a control character (a tab allowed when
     * {@code tab}): what {@link StrictHttpFirewall#ALLOWED_HEADER_NAMES} and, with a tab,
     * {@link StrictHttpFirewall#ALLOWED_HEADER_VALUES} match.
     */
    static boolean allowed(String text, boolean tab) {
        for (int i = 0; i < text.length(); ) {
            char c = text.charAt(i);
            if ((c >= 0x20 && c < 0x7F) || (tab && c == '\t')) {
                i++;
                continue;
            }
            int codePoint = text.codePointAt(i);
            int type = Character.getType(codePoint);
            if (type == Character.UNASSIGNED || type == Character.CONTROL) return false;
            i += Character.charCount(codePoint);
        }
        return true;
    }
}
