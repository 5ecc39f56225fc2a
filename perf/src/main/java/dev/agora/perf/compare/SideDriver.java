package dev.agora.perf.compare;

import dev.agora.launcher.credentials.AccessTokens;
import dev.agora.perf.experiment.ServerMetrics;
import dev.agora.perf.experiment.Stock;
import dev.agora.perf.load.Bookstore;
import dev.agora.perf.load.HttpDriver;
import dev.agora.perf.load.HttpReply;
import dev.agora.perf.stats.LatencyHistogram;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Sends one cluster its bookstore requests, one at a time: searches alternate between the two topics, lookups and
 * buys (one copy each) go to the seven books in turn. Public reads carry no token; buys carry the customer's where
 * the cluster has one.
 */
final class SideDriver implements AutoCloseable {

    private final LaunchedCluster cluster;
    private final ClusterAccess access;
    private final HttpDriver http = new HttpDriver(2);
    private final AccessTokens tokens;
    private final Bookstore bookstore;
    private final String frontend;
    private final String catalog;
    private long reads;
    private long buys;

    SideDriver(LaunchedCluster cluster, ClusterAccess access) {
        this.cluster = cluster;
        this.access = access;
        this.tokens = access.tokens().prefetch();
        this.bookstore = new Bookstore(http, tokens);
        this.frontend = cluster.urls("frontend").getFirst();
        this.catalog = cluster.urls("catalog").getFirst();
    }

    Side side() {
        return cluster.side();
    }

    LaunchedCluster cluster() {
        return cluster;
    }

    ClusterAccess access() {
        return access;
    }

    HttpReply send(Kind kind) {
        return switch (kind) {
            case SEARCH -> bookstore.search(frontend, Bookstore.TOPICS.get((int) (reads++ % Bookstore.TOPICS.size())));
            case LOOKUP ->
                bookstore.lookup(frontend, Bookstore.BOOK_IDS.get((int) (reads++ % Bookstore.BOOK_IDS.size())));
            case BUY -> bookstore.buy(frontend, Bookstore.BOOK_IDS.get((int) (buys++ % Bookstore.BOOK_IDS.size())), 1);
        };
    }

    /** One request of each kind must succeed before anything is measured: a refused buy is a setup error. */
    void checkEachKind() {
        for (Kind kind : Kind.values()) {
            HttpReply reply = send(kind);
            if (!reply.isSuccess()) {
                throw new IllegalStateException(kind.label() + " on the " + side().label() + " cluster (" + frontend
                        + ") answered " + describe(reply));
            }
        }
    }

    /** Each book's stock, read from the catalog. */
    Map<Long, Long> stock() {
        Map<Long, Long> stock = new LinkedHashMap<>();
        for (long book : Bookstore.BOOK_IDS) stock.put(book, Stock.current(bookstore, catalog, book));
        return stock;
    }

    void restockTo(long copies) {
        Stock.ensure(bookstore, catalog, Bookstore.BOOK_IDS, copies);
    }

    /**
     * Mixed requests for a while: search, lookup, lookup, buy, ... with buys only while {@code buyBudget[0]} lasts
     * (then a lookup instead). Returns the answers that were not 2xx.
     */
    long warmUp(Duration duration, long[] buyBudget) {
        long end = System.nanoTime() + duration.toNanos();
        long failures = 0;
        for (long i = 0; System.nanoTime() < end; i++) {
            Kind kind =
                    switch ((int) (i % 4)) {
                        case 0 -> Kind.SEARCH;
                        case 3 -> buyBudget[0]-- > 0 ? Kind.BUY : Kind.LOOKUP;
                        default -> Kind.LOOKUP;
                    };
            if (!send(kind).isSuccess()) failures++;
        }
        return failures;
    }

    /**
     * {@code count} sequential requests of the batch's kind, with the CPU time of every tier around them and, for
     * buys, the mean time the catalog's writes waited for their invalidations to reach every frontend (its
     * {@code agora.invalidation.push} timer, read before and after the batch).
     */
    BatchResult measure(RoundSchedule.Batch batch, int count) {
        LatencyHistogram latencies = new LatencyHistogram();
        long failures = 0;
        String firstFailure = "";
        ServerMetrics pushesBefore = batch.kind() == Kind.BUY ? pushes() : ServerMetrics.NONE;
        Map<CpuTier, Long> before = cluster.cpuTicks();
        long started = System.nanoTime();
        for (int i = 0; i < count; i++) {
            long sent = System.nanoTime();
            HttpReply reply = send(batch.kind());
            latencies.recordNanos(System.nanoTime() - sent);
            if (!reply.isSuccess()) {
                if (failures++ == 0) firstFailure = describe(reply);
            }
        }
        Duration wall = Duration.ofNanos(System.nanoTime() - started);
        Map<CpuTier, Double> cpuMillis = cluster.cpuMillisSince(before);
        double pushMillis = batch.kind() == Kind.BUY ? pushes().meanMillisSince(pushesBefore) : Double.NaN;
        return new BatchResult(batch, latencies.summarize(wall), failures, firstFailure, cpuMillis, pushMillis);
    }

    private ServerMetrics pushes() {
        return ServerMetrics.read(http, cluster.urls("catalog"), "agora_invalidation_push_seconds");
    }

    private static String describe(HttpReply reply) {
        if (reply.status() == 0) return "no answer: " + reply.failure();
        String body = reply.body().length() > 300 ? reply.body().substring(0, 300) + "..." : reply.body();
        return reply.status() + " " + body;
    }

    @Override
    public void close() {
        tokens.close();
        http.close();
    }
}
