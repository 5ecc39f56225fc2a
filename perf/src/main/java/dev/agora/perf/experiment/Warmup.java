package dev.agora.perf.experiment;

import dev.agora.perf.load.Bookstore;
import dev.agora.perf.load.ClosedLoad;
import dev.agora.perf.load.HttpDriver;
import dev.agora.perf.load.LoadResult;
import dev.agora.perf.stats.Numbers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Runs every bookstore call on a fresh cluster before anything is measured, so the figures are those of
 * warmed-up JVMs rather than of the interpreter and cold connection pools (the seeds' Python servers had no JIT
 * to warm). Every instance gets traffic.
 *
 * <p>A fixed number of requests is not enough: seven JVMs compiling on two cores keep their C2 compilers busy
 * for minutes, and a request measured meanwhile pays for another JVM's compilation. So the mixed workload runs
 * in rounds until the services' own compilation clock ({@code jvm.compilation.time}) says the JIT has settled,
 * within a time limit.
 */
public final class Warmup {

    /** Iterations per client and round: about ten seconds of traffic on this machine. */
    private static final int ROUND_ITERATIONS = 400;

    private static final int CLIENTS = 4;

    /**
     * Settled: the last round's compilation time, per instance, is below this share of the round. What is
     * still compiled then is the long tail of rarely taken paths, not the request path. The clock is elapsed
     * time, so on a machine with fewer cores than busy threads it overstates the work and the time limit ends
     * the warm-up instead.
     */
    private static final double SETTLED_COMPILATION_SHARE = 0.03;

    private static final Duration TIME_LIMIT = Duration.ofMinutes(2);

    private static final String COMPILATION_METRIC = "jvm_compilation_time_ms_total";

    private static final Duration IDLE_PROBE = Duration.ofSeconds(2);

    private Warmup() {}

    /** @return what the warm-up did, for the reports; empty when there was no bookstore to warm */
    public static String bookstore(Target target, boolean quick) {
        List<String> frontends = target.urls("frontend");
        List<String> catalogs = target.urls("catalog");
        List<String> orders = target.urls("order");
        if (frontends.isEmpty() || catalogs.isEmpty()) return "";
        List<String> instances = bookstoreInstances(target);
        try (HttpDriver http = new HttpDriver(16)) {
            Bookstore bookstore = new Bookstore(http, target.tokens());
            long started = System.nanoTime();
            long requests = 0;
            int rounds = 0;
            double share;
            double compiledBefore = compilationMillis(http, instances);
            while (true) {
                long roundStarted = System.nanoTime();
                requests += round(bookstore, frontends, catalogs, orders, quick ? 100 : ROUND_ITERATIONS, rounds);
                rounds++;
                double compiled = compilationMillis(http, instances);
                double roundMillis = (System.nanoTime() - roundStarted) / 1e6;
                share = (compiled - compiledBefore) / instances.size() / roundMillis;
                compiledBefore = compiled;
                if (quick || share < SETTLED_COMPILATION_SHARE) break;
                if (Duration.ofNanos(System.nanoTime() - started).compareTo(TIME_LIMIT) >= 0) break;
            }
            long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
            return "Warm-up before measuring: " + requests + " mixed bookstore requests from " + CLIENTS
                    + " clients in " + rounds + " rounds (" + seconds
                    + " s); in the last round the services' compilation "
                    + "clock (jvm.compilation.time: elapsed time summed over compiler threads, so it also runs while "
                    + "a compiler waits for a core) advanced " + Numbers.format(share * 100) + "% of the round per "
                    + "instance"
                    + (quick
                            ? " (quick run: one short round)"
                            : share < SETTLED_COMPILATION_SHARE
                                    ? " (settled: below " + Numbers.format(SETTLED_COMPILATION_SHARE * 100) + "%)"
                                    : " (not settled within the " + TIME_LIMIT.toMinutes() + "-minute limit)")
                    + ".";
        }
    }

    /** Base URLs of every frontend, catalog and order instance of the target: whose compilers the waits watch. */
    public static List<String> bookstoreInstances(Target target) {
        return bookstoreInstances(target::urls);
    }

    /** The same from any source of a tier's instance URLs (a cluster perf launched itself, for one). */
    public static List<String> bookstoreInstances(Function<String, List<String>> urlsOfTier) {
        List<String> instances = new ArrayList<>();
        for (String tier : List.of("frontend", "catalog", "order")) instances.addAll(urlsOfTier.apply(tier));
        return instances;
    }

    /** @return requests sent */
    private static long round(
            Bookstore bookstore,
            List<String> frontends,
            List<String> catalogs,
            List<String> orders,
            int iterationsPerClient,
            int roundIndex) {
        Stock.ensure(bookstore, catalogs.getFirst(), Bookstore.BOOK_IDS, 5L * iterationsPerClient + 100);
        LoadResult result = ClosedLoad.run(CLIENTS, iterationsPerClient, (client, i, recorder) -> {
            String frontend = frontends.get((client + i) % frontends.size());
            String catalog = catalogs.get((client + i) % catalogs.size());
            long book = Bookstore.BOOK_IDS.get((client + i) % Bookstore.BOOK_IDS.size());
            recorder.time("search", () -> bookstore.search(frontend, Bookstore.TOPICS.get(i % 2)));
            recorder.time("lookup", () -> bookstore.lookup(frontend, book));
            recorder.time("catalog lookup", () -> bookstore.catalogLookup(catalog, book));
            if (i % 4 == 0) recorder.time("buy", () -> bookstore.buy(frontend, book, 1));
            if (!orders.isEmpty() && i % 8 == 0) {
                String order = orders.get((client + i) % orders.size());
                String key = "warmup-" + roundIndex + "-" + client + "-" + i;
                recorder.time("order", () -> bookstore.orderDirect(order, book, 1, key));
            }
        });
        return result.all().count() + result.totalFailures();
    }

    /**
     * Waits, sending nothing, until no instance's JIT is still compiling what earlier traffic queued: a cluster that
     * has just been warmed up keeps its compiler threads busy for many seconds after its last request, and on two
     * cores they take the CPU from whatever is measured next (on the same cluster or on another one).
     *
     * @return what the wait found, for the reports
     */
    public static String awaitIdleCompilers(List<String> instances, Duration limit) {
        long started = System.nanoTime();
        try (HttpDriver http = new HttpDriver(4)) {
            double before = compilationMillis(http, instances);
            while (true) {
                long intervalStarted = System.nanoTime();
                sleep(IDLE_PROBE);
                double after = compilationMillis(http, instances);
                double share = (after - before) / instances.size() / ((System.nanoTime() - intervalStarted) / 1e6);
                before = after;
                Duration waited = Duration.ofNanos(System.nanoTime() - started);
                if (share < SETTLED_COMPILATION_SHARE || waited.compareTo(limit) >= 0) {
                    return "Before measuring, the " + instances.size() + " service instances "
                            + "were left idle for " + Numbers.format(waited.toMillis() / 1000.0) + " s until their "
                            + "compilers had finished what the warm-up queued: in the last "
                            + IDLE_PROBE.toMillis() + " ms their compilation clock advanced "
                            + Numbers.format(share * 100) + "% of the interval per instance"
                            + (share < SETTLED_COMPILATION_SHARE
                                    ? " (idle: below " + Numbers.format(SETTLED_COMPILATION_SHARE * 100) + "%)."
                                    : " (still compiling after the " + limit.toSeconds() + " s limit).");
                }
            }
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for idle compilers", e);
        }
    }

    /** Summed over the instances; one that does not answer counts nothing. */
    private static double compilationMillis(HttpDriver http, List<String> instances) {
        double millis = 0;
        for (String instance : instances) {
            for (ServerMetrics.Sample sample : ServerMetrics.scrape(http, instance)) {
                if (sample.isNamed(COMPILATION_METRIC)) millis += sample.value();
            }
        }
        return millis;
    }
}
