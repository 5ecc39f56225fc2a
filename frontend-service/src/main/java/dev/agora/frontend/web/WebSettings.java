package dev.agora.frontend.web;

import java.time.Duration;
import java.util.List;

/** The web pages' bounds: constants, with the reason for each; nobody has to tune them. */
public final class WebSettings {

    /** The seed data's topics (DESIGN.md): the catalog searches by topic only, so the home page offers these. */
    public static final List<String> TOPICS = List.of("distributed systems", "graduate school");

    /**
     * How often a trading desk's live stream asks the exchange for the book and the orders: twice a second looks live
     * to a person and costs the exchange one small read per desk each time.
     */
    public Duration deskPollInterval() {
        return Duration.ofMillis(500);
    }

    /** The topics the home page offers, and searches for a title when no topic is given. */
    public List<String> topics() {
        return TOPICS;
    }

    /** Live desk streams kept open at once, more are refused (503): each holds a request thread's worth of polling. */
    public int deskStreamLimit() {
        return 200;
    }

    /**
     * How often a live stream asks the shared session store whether its person is still signed in: a sign-out ends
     * their desks within this, at one read by key per stream each time.
     */
    public Duration deskSessionCheckInterval() {
        return Duration.ofSeconds(2);
    }

    /** How long one live stream lasts; the browser's EventSource then reconnects by itself. */
    public Duration deskStreamTimeout() {
        return Duration.ofMinutes(5);
    }
}
