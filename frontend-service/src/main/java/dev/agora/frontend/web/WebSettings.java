package dev.agora.frontend.web;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param apiUrl where the pages call the public API; blank: this frontend itself on loopback
 * @param topics the topics the home page offers, and searches for a title when no topic is given (the catalog
 *     searches by topic only)
 * @param deskPollInterval how often a trading desk's live stream asks the exchange for the book and the orders
 * @param deskStreamLimit most live desk streams this frontend keeps open at once; more are refused (503)
 * @param deskStreamTimeout how long one live stream lasts; the browser's EventSource then reconnects by itself
 */
@ConfigurationProperties("agora.web")
public record WebSettings(
        URI apiUrl, List<String> topics, Duration deskPollInterval, int deskStreamLimit, Duration deskStreamTimeout) {

    public WebSettings {
        topics = topics == null ? List.of() : List.copyOf(topics);
        if (deskPollInterval == null) deskPollInterval = Duration.ofMillis(500);
        if (deskStreamLimit <= 0) deskStreamLimit = 200;
        if (deskStreamTimeout == null) deskStreamTimeout = Duration.ofMinutes(5);
    }
}
