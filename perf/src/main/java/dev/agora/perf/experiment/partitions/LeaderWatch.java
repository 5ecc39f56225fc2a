package dev.agora.perf.experiment.partitions;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Asks every exchange instance, one after the other and over and over, whether it leads and at which epoch (its
 * health details, over a direct link), and finds from the answers whether two instances ever led at once.
 *
 * <p>Two answers taken at different moments do not show overlap by themselves: A leading, then B leading, is a
 * handover in between. Overlap is proven by a sandwich: A leads at epoch e, then B leads at another epoch, then A
 * still leads at e; the requests run one after the other, so B's answer was given while A held e.
 */
final class LeaderWatch implements AutoCloseable {

    private static final Pattern LEADER = Pattern.compile("\"leader\"\\s*:\\s*(true|false)");
    private static final Pattern EPOCH = Pattern.compile("\"epoch\"\\s*:\\s*(\\d+)");

    /** One answer: instance index, when the request ended, whether it led and its epoch (0 = none). */
    record Observation(int instance, long nanos, boolean leader, long epoch) {}

    private final List<String> urls;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofMillis(300)).build();
    private final ConcurrentLinkedQueue<Observation> observations = new ConcurrentLinkedQueue<>();
    private volatile boolean running = true;
    private final Thread thread;

    LeaderWatch(List<String> exchangeUrls) {
        this.urls = List.copyOf(exchangeUrls);
        this.thread = Thread.ofPlatform().daemon().name("leader-watch").start(this::run);
    }

    private void run() {
        while (running) {
            for (int i = 0; i < urls.size() && running; i++) {
                Observation seen = observe(i);
                if (seen != null) observations.add(seen);
            }
            Buyers.sleep(10);
        }
    }

    private Observation observe(int instance) {
        try {
            HttpResponse<String> health =
                    http.send(exchangeHealth(urls.get(instance)), HttpResponse.BodyHandlers.ofString());
            Matcher leader = LEADER.matcher(health.body());
            Matcher epoch = EPOCH.matcher(health.body());
            if (!leader.find() || !epoch.find()) return null;
            return new Observation(
                    instance, System.nanoTime(), Boolean.parseBoolean(leader.group(1)), Long.parseLong(epoch.group(1)));
        } catch (IOException silent) {
            // Frozen, killed or starting: no answer is no observation.
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
            return null;
        }
    }

    /**
     * The exchange's own health component: the whole health document also asks the database, which a partitioned
     * instance cannot reach, and would not answer in time.
     */
    private static HttpRequest exchangeHealth(String url) {
        return HttpRequest.newBuilder(URI.create(url + "/actuator/health/exchange"))
                .timeout(Duration.ofMillis(500))
                .build();
    }

    private static final HttpClient SHARED =
            HttpClient.newBuilder().connectTimeout(Duration.ofMillis(300)).build();

    private static final Pattern ROLE = Pattern.compile("\"role\"\\s*:\\s*\"([A-Z]+)\"");

    /** The role an exchange instance reports (ACTIVE, STANDBY, RECOVERING, ...), or "no answer". */
    static String role(String url) {
        try {
            String body = SHARED.send(exchangeHealth(url), HttpResponse.BodyHandlers.ofString())
                    .body();
            Matcher role = ROLE.matcher(body);
            return role.find() ? role.group(1) : "no role in " + body;
        } catch (IOException e) {
            return "no answer";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "no answer";
        }
    }

    List<Observation> observations() {
        return List.copyOf(observations);
    }

    /** 2 when some answers prove two leaders at once (see the class comment), 1 when one led, 0 when none did. */
    static int leadersAtOnce(List<Observation> observations) {
        // Per instance and epoch it led in: the first and last answer saying so.
        java.util.Map<String, long[]> tenures = new java.util.HashMap<>();
        for (Observation o : observations) {
            if (!o.leader()) continue;
            tenures.merge(
                    o.instance() + "@" + o.epoch(),
                    new long[] {o.nanos(), o.nanos(), o.instance(), o.epoch()},
                    (held, seen) ->
                            new long[] {Math.min(held[0], seen[0]), Math.max(held[1], seen[1]), held[2], held[3]});
        }
        if (tenures.isEmpty()) return 0;
        for (Observation o : observations) {
            if (!o.leader()) continue;
            for (long[] tenure : tenures.values()) {
                boolean other = tenure[2] != o.instance() && tenure[3] != o.epoch();
                if (other && tenure[0] < o.nanos() && o.nanos() < tenure[1]) return 2;
            }
        }
        return 1;
    }

    /** Distinct epochs any instance led in. */
    static long epochsSeen(List<Observation> observations) {
        return observations.stream()
                .filter(Observation::leader)
                .mapToLong(Observation::epoch)
                .distinct()
                .count();
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
