package dev.agora.frontend.web;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The web pages' settings ({@code agora.web}): only how often a trading desk's live stream asks the exchange for the
 * book and the orders, which tests shorten. The rest are constants.
 *
 * @param deskPollInterval how often a trading desk's live stream asks the exchange for the book and the orders
 */
@ConfigurationProperties("agora.web")
public record WebSettings(Duration deskPollInterval) {

    /** The seed data's topics (DESIGN.md): the catalog searches by topic only, so the home page offers these. */
    public static final List<String> TOPICS = List.of("distributed systems", "graduate school");

    public WebSettings {
        if (deskPollInterval == null) deskPollInterval = Duration.ofMillis(500);
    }

    /** The topics the home page offers, and searches for a title when no topic is given. */
    public List<String> topics() {
        return TOPICS;
    }

    /** Live desk streams kept open at once, more are refused (503): each holds a request thread's worth of polling. */
    public int deskStreamLimit() {
        return 200;
    }

    /** How long one live stream lasts; the browser's EventSource then reconnects by itself. */
    public Duration deskStreamTimeout() {
        return Duration.ofMinutes(5);
    }
}
