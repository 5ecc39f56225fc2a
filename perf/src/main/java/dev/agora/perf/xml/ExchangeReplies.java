package dev.agora.perf.xml;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Just enough reading of {@code <results>} replies for the load generator: outcomes and opened order ids. */
public final class ExchangeReplies {

    private static final Pattern OPENED_ID = Pattern.compile("<opened\\b[^>]*\\bid=\"(\\d+)\"");
    private static final Pattern ELEMENT = Pattern.compile("<(created|opened|status|canceled|error)\\b");

    private ExchangeReplies() {}

    public record Outcomes(int successes, int errors) {}

    public static boolean isResults(String reply) {
        String trimmed = reply.strip();
        return trimmed.contains("<results") && (trimmed.endsWith("</results>") || trimmed.endsWith("<results/>"));
    }

    /** Counts the top-level outcomes: every created/opened/status/canceled is a success, every error an error. */
    public static Outcomes outcomes(String reply) {
        int successes = 0;
        int errors = 0;
        Matcher matcher = ELEMENT.matcher(stripNested(reply));
        while (matcher.find()) {
            if (matcher.group(1).equals("error")) errors++;
            else successes++;
        }
        return new Outcomes(successes, errors);
    }

    public static List<Long> openedOrderIds(String reply) {
        List<Long> ids = new ArrayList<>();
        Matcher matcher = OPENED_ID.matcher(reply);
        while (matcher.find()) {
            try {
                ids.add(Long.parseLong(matcher.group(1)));
            } catch (NumberFormatException e) {
                // an id beyond 64 bits cannot be one the server made from its sequence; skip it
            }
        }
        return ids;
    }

    /** Drops the children of status/canceled (their own canceled/executed/open) so they are not counted. */
    private static String stripNested(String reply) {
        return reply.replaceAll("(?s)<(status|canceled)\\b([^>]*[^/])?>.*?</\\1>", "<$1/>");
    }
}
