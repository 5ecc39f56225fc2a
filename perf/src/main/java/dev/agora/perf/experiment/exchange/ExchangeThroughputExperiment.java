package dev.agora.perf.experiment.exchange;

import static dev.agora.perf.stats.Numbers.format;

import dev.agora.perf.ceiling.NullExchangeProcess;
import dev.agora.perf.experiment.ClusterShape;
import dev.agora.perf.experiment.Experiment;
import dev.agora.perf.experiment.ExperimentContext;
import dev.agora.perf.experiment.Seeds;
import dev.agora.perf.experiment.Target;
import dev.agora.perf.report.Chart;
import dev.agora.perf.report.Report;
import dev.agora.perf.report.Table;
import dev.agora.perf.stats.Comparison;
import dev.agora.perf.stats.LatencyHistogram;
import dev.agora.perf.stats.LatencySummary;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The exchange's throughput targets (issue 6): creates only and transactions only, each measured separately
 * at 8/16/32 closed-loop clients for a fixed time after a real JIT warm-up, exchange on 2 cores and pinned to
 * 1 core. One TCP connection per request, as the protocol demands; every reply is durable (fsync on).
 *
 * <p>The load generator shares the machine with the exchange, so it is kept lean: one thread drives every client
 * over non-blocking sockets ({@link ExchangeLoadDriver}), the request is written into a reused byte buffer, the
 * reply read into a reused buffer and scanned for {@code <error} and the opened order id without any XML
 * parsing.
 */
public final class ExchangeThroughputExperiment implements Experiment {

    static final double TARGET_CREATES = 10_000;
    static final double TARGET_TRANSACTIONS = 5_000;
    static final double TARGET_P99_MILLIS = 20;
    private static final double SEED_THROUGHPUT = 49.41;

    @Override
    public String name() {
        return "exchange-throughput";
    }

    @Override
    public String seed() {
        return "001";
    }

    @Override
    public String workload() {
        return "XML creates only and transactions only (order + query + cancel of the account's own orders), "
                + "8/16/32 closed-loop clients, fixed-time runs after a JIT warm-up, exchange on 2 cores vs 1";
    }

    @Override
    public String seedFigure() {
        return "39.29-49.41 req/s (mixed creates and transactions)";
    }

    enum Kind {
        CREATES,
        TRANSACTIONS
    }

    record Outcome(
            int cores,
            Kind kind,
            int clients,
            double seconds,
            long requests,
            long failures,
            long errorElements,
            LatencyHistogram latencies,
            ExchangeProcessCpu.PerRequest cpu) {

        double throughput() {
            return requests / seconds;
        }

        String label() {
            return line() + ", " + clients + " clients";
        }

        /** The configuration without its client count: one line of the throughput chart. */
        String line() {
            return cores + (cores == 1 ? " core, " : " cores, ") + kind.name().toLowerCase();
        }

        LatencySummary latencySummary() {
            return latencies.summarize(Duration.ofNanos((long) (seconds * 1e9)));
        }

        /** The raw figures every configuration has; callers add the CPU columns that apply to them. */
        Map<String, Object> raw() {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("throughput", throughput());
            entry.put("latency", latencySummary());
            entry.put("failures", failures);
            return entry;
        }
    }

    @Override
    public Report run(ExperimentContext context) throws Exception {
        Instant started = Instant.now();
        // 20 s left the JIT compiling through the first measured runs on 2 cores (CPU per request doubled there).
        Duration warmup = Duration.ofSeconds(context.count(60, 5));
        Duration runTime = Duration.ofSeconds(context.count(10, 3));
        // An A/B of two builds wants only some configurations, each in the same quiet window.
        List<Integer> clientCounts = chosen("clients", context.choose(List.of(8, 16, 32), List.of(8, 32)));
        List<Integer> coreCounts = chosen("cores", context.choose(List.of(2, 1), List.of(2, 1)));
        Report.Builder report = Report.builder(name(), "Exchange matching server: throughput targets")
                .seed(seed(), Seeds.HARDWARE_001)
                .quick(context.quick());
        List<Outcome> outcomes = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        int round = 0;
        for (int cores : coreCounts) {
            ClusterShape shape = ClusterShape.exchangeOnly();
            if (cores == 1) shape = shape.with("exchange", "JAVA_TOOL_OPTIONS", "-XX:ActiveProcessorCount=1");
            Instant clusterStarted = Instant.now().minusSeconds(1);
            Target target = context.cluster(shape);
            long pid = target.pid(target.instanceNames("exchange").getFirst());
            ExchangeProcessCpu cpu = ExchangeProcessCpu.of(pid, clusterStarted);
            if (cores == 1) {
                taskset(pid, "0");
                notes.add("1 core: exchange pid " + pid + " pinned with `taskset -a -cp 0`, started with "
                        + "`-XX:ActiveProcessorCount=1` (unless the cluster was reused)");
                context.log("  pinned exchange pid " + pid + " to CPU 0");
            }
            try {
                Load load = new Load(
                        "127.0.0.1",
                        target.exchangeTcpPort(),
                        "r" + (round++) + "x" + ProcessHandle.current().pid(),
                        cpu);
                context.log(
                        "  warm-up " + warmup.toSeconds() + " s (creates, then transactions), " + cores + " core(s)");
                load.run(Kind.CREATES, 16, warmup.dividedBy(2), cores);
                load.run(Kind.TRANSACTIONS, 16, warmup.dividedBy(2), cores);
                for (Kind kind : Kind.values()) {
                    for (int clients : clientCounts) {
                        Outcome outcome = load.run(kind, clients, runTime, cores);
                        outcomes.add(outcome);
                        context.log("  " + outcome.label() + ": " + format(outcome.throughput()) + " req/s, p50 "
                                + format(outcome.latencies().percentileMillis(50)) + " ms, p99 "
                                + format(outcome.latencies().percentileMillis(99)) + " ms, failures "
                                + outcome.failures() + ", error elements " + outcome.errorElements()
                                + ", CPU us/request: exchange "
                                + format(outcome.cpu().exchange()) + ", postgres "
                                + format(outcome.cpu().postgres()) + ", load generator "
                                + format(outcome.cpu().loadGenerator()));
                    }
                }
            } finally {
                if (cores == 1) taskset(pid, "0-" + (Runtime.getRuntime().availableProcessors() - 1));
            }
        }
        List<Outcome> ceiling = ceiling(context, warmup, runTime, clientCounts);
        return report(report, outcomes, ceiling, notes, warmup, runTime)
                .timing(started, Duration.between(started, Instant.now()))
                .build();
    }

    /**
     * The same creates, same clients, same load generator, against a server that only accepts, reads the frame,
     * writes a fixed reply and closes ({@link dev.agora.perf.ceiling.NullExchangeServer}), on both cores: the most
     * that one TCP connection per request allows on this machine, whatever the server does with the request.
     */
    private static List<Outcome> ceiling(
            ExperimentContext context, Duration warmup, Duration runTime, List<Integer> clientCounts)
            throws IOException {
        List<Outcome> outcomes = new ArrayList<>();
        try (NullExchangeProcess server = NullExchangeProcess.start(List.of("-Xmx256m"))) {
            Load load = new Load(
                    "127.0.0.1",
                    server.port(),
                    "n" + ProcessHandle.current().pid(),
                    ExchangeProcessCpu.of(server.pid(), Instant.now()));
            Duration warm = warmup.dividedBy(4);
            context.log("  ceiling: null server (reads the frame, writes a fixed reply, closes), warm-up "
                    + warm.toSeconds() + " s, 2 cores");
            load.run(Kind.CREATES, 16, warm, 2);
            for (int clients : clientCounts) {
                Outcome outcome = load.run(Kind.CREATES, clients, runTime, 2);
                outcomes.add(outcome);
                context.log("  ceiling, " + clients + " clients: " + format(outcome.throughput()) + " req/s, p50 "
                        + format(outcome.latencies().percentileMillis(50)) + " ms, p99 "
                        + format(outcome.latencies().percentileMillis(99)) + " ms, failures " + outcome.failures()
                        + ", CPU us/request: null server "
                        + format(outcome.cpu().exchange())
                        + ", load generator " + format(outcome.cpu().loadGenerator()));
            }
        }
        return outcomes;
    }

    private static Report.Builder report(
            Report.Builder report,
            List<Outcome> outcomes,
            List<Outcome> ceiling,
            List<String> notes,
            Duration warmup,
            Duration runTime) {
        Table.Builder table = Table.with(
                "configuration",
                "req/s",
                "p50 ms",
                "p99 ms",
                "max ms",
                "requests",
                "failures",
                "error elements",
                "exchange CPU us/request",
                "postgres CPU us/request",
                "load generator CPU us/request");
        Map<String, Object> raw = new LinkedHashMap<>();
        for (Outcome o : outcomes) {
            table.row(
                    o.label(),
                    format(o.throughput()),
                    format(o.latencies().percentileMillis(50)),
                    format(o.latencies().percentileMillis(99)),
                    format(o.latencies().maxMillis()),
                    o.requests(),
                    o.failures(),
                    o.errorElements(),
                    format(o.cpu().exchange()),
                    format(o.cpu().postgres()),
                    format(o.cpu().loadGenerator()));
            report.latency(o.label(), o.latencySummary(), o.failures());
            Map<String, Object> entry = o.raw();
            entry.put("errorElements", o.errorElements());
            entry.put("exchangeCpuMicrosPerRequest", o.cpu().exchange());
            entry.put("postgresCpuMicrosPerRequest", o.cpu().postgres());
            entry.put("loadGeneratorCpuMicrosPerRequest", o.cpu().loadGenerator());
            raw.put(o.label(), entry);
        }
        StringBuilder headline = new StringBuilder();
        for (Kind kind : Kind.values()) {
            double target = kind == Kind.CREATES ? TARGET_CREATES : TARGET_TRANSACTIONS;
            Outcome best = outcomes.stream()
                    .filter(o -> o.kind() == kind && o.cores() == 2)
                    .max(Comparator.comparingDouble(Outcome::throughput))
                    .orElse(null);
            if (best == null) continue;
            report.compare(Comparison.higherIsBetter(
                    kind.name().toLowerCase() + ", best of 8-32 clients, 2 cores, vs target " + format(target),
                    "req/s",
                    target,
                    best.throughput()));
            report.compare(Comparison.higherIsBetter(
                    kind.name().toLowerCase() + ", best of 8-32 clients, 2 cores, vs seed 4-core VM",
                    "req/s",
                    SEED_THROUGHPUT,
                    best.throughput()));
            if (!headline.isEmpty()) headline.append("; ");
            headline.append(kind.name().toLowerCase())
                    .append(" ")
                    .append(format(best.throughput()))
                    .append(" req/s at ")
                    .append(best.clients())
                    .append(" clients (p99 ")
                    .append(format(best.latencies().percentileMillis(99)))
                    .append(" ms), target ")
                    .append(format(target));
        }
        Outcome bestCeiling = ceiling.stream()
                .max(Comparator.comparingDouble(Outcome::throughput))
                .orElse(null);
        if (bestCeiling != null) {
            headline.append("; a null server (no parsing, engine or database) ")
                    .append(format(bestCeiling.throughput()))
                    .append(" req/s");
            report.floor("a null server (no parsing, engine or database) " + format(bestCeiling.throughput())
                    + " req/s at " + bestCeiling.clients() + " clients");
        }
        report.headline("2 cores: " + headline);
        report.chart(throughputChart(outcomes, ceiling));
        report.section(
                "Throughput and latency per configuration",
                "Closed loop: each client sends one request, reads the reply to the end of stream, and sends the "
                        + "next, one TCP connection per request. Each run lasts " + runTime.toSeconds() + " s after a "
                        + warmup.toSeconds() + " s warm-up per cluster. Creates: one new account plus one position. "
                        + "Transactions: one order, one query of one of the account's recent orders and one cancel of "
                        + "its latest resting order (accounts set up with ample cash and shares, and one resting order "
                        + "each). Orders rest away from the market (bids 95.00-99.99, asks 100.00-104.99) except one "
                        + "in " + Load.MARKETABLE_ONE_IN + ", a small order (1-10 shares) that crosses the spread and "
                        + "trades; error elements are cancels of resting orders such trades filled completely. "
                        + "Latency from HdrHistogram. CPU per request from /proc/PID/stat: the exchange JVM, its "
                        + "PostgreSQL (postmaster and every process below it) and the load generator's JVM.",
                table.build());
        if (!ceiling.isEmpty())
            report.section(
                    "Ceiling: the same creates against a server that does nothing",
                    ceilingText(),
                    ceilingTable(outcomes, ceiling, raw));
        for (String note : notes) report.note(note);
        return report.note("The load generator runs unpinned on the same 2-core machine and competes with the exchange "
                        + "and PostgreSQL for CPU.")
                .raw("configurations", raw);
    }

    private static String ceilingText() {
        return "The protocol asks for one TCP connection per request. To see what that costs on this machine by "
                + "itself, the same load generator sends the same creates, with the same clients, to a server that "
                + "does only what the exchange's XML server does on the wire: accept, read the length-framed "
                + "request, write a fixed reply of a create's size, close (one NIO thread, its own JVM, both "
                + "cores, measured after the exchange runs). Its throughput bounds any exchange on this box; the "
                + "last column is the exchange's creates on 2 cores at the same client count as a share of it. "
                + "(A system-wide `perf record` of an exchange run put two thirds of the box's samples in the "
                + "kernel, mostly TCP connection set-up and tear-down over loopback.)";
    }

    /** Throughput against clients, a line per cores and kind, and the null server's beside them. */
    private static Chart throughputChart(List<Outcome> outcomes, List<Outcome> ceiling) {
        Chart.Builder chart =
                Chart.line("exchange-throughput.png", "Throughput by clients", "clients", "requests per second");
        Map<String, List<Outcome>> lines = new LinkedHashMap<>();
        for (Outcome o : outcomes) {
            lines.computeIfAbsent(o.line(), line -> new ArrayList<>()).add(o);
        }
        if (!ceiling.isEmpty()) lines.put("null server", ceiling);
        for (Map.Entry<String, List<Outcome>> line : lines.entrySet()) {
            List<Outcome> points = line.getValue().stream()
                    .sorted(Comparator.comparingInt(Outcome::clients))
                    .toList();
            chart.series(
                    line.getKey(),
                    points.stream().map(o -> (double) o.clients()).toList(),
                    points.stream().map(Outcome::throughput).toList());
        }
        return chart.build();
    }

    private static Table ceilingTable(List<Outcome> outcomes, List<Outcome> ceiling, Map<String, Object> raw) {
        Table.Builder table = Table.with(
                "clients",
                "req/s",
                "p50 ms",
                "p99 ms",
                "failures",
                "null server CPU us/request",
                "load generator CPU us/request",
                "exchange creates (2 cores) / ceiling");
        Map<String, Object> rawCeiling = new LinkedHashMap<>();
        for (Outcome o : ceiling) {
            double exchange = outcomes.stream()
                    .filter(e -> e.kind() == Kind.CREATES && e.cores() == 2 && e.clients() == o.clients())
                    .mapToDouble(Outcome::throughput)
                    .findFirst()
                    .orElse(Double.NaN);
            table.row(
                    o.clients(),
                    format(o.throughput()),
                    format(o.latencies().percentileMillis(50)),
                    format(o.latencies().percentileMillis(99)),
                    o.failures(),
                    format(o.cpu().exchange()),
                    format(o.cpu().loadGenerator()),
                    Double.isNaN(exchange) ? "-" : format(100 * exchange / o.throughput()) + "%");
            Map<String, Object> entry = o.raw();
            entry.put("serverCpuMicrosPerRequest", o.cpu().exchange());
            entry.put("loadGeneratorCpuMicrosPerRequest", o.cpu().loadGenerator());
            rawCeiling.put(o.clients() + " clients", entry);
        }
        raw.put("ceiling (null server)", rawCeiling);
        return table.build();
    }

    /** {@code -Dexchange-throughput.clients=8,32} (or {@code .cores=2}) narrows a run to those configurations. */
    private static List<Integer> chosen(String what, List<Integer> otherwise) {
        String configured = System.getProperty("exchange-throughput." + what);
        if (configured == null || configured.isBlank()) return otherwise;
        return Arrays.stream(configured.split(","))
                .map(String::strip)
                .map(Integer::valueOf)
                .toList();
    }

    private static void taskset(long pid, String cpus) throws IOException {
        Process taskset = new ProcessBuilder("taskset", "-a", "-cp", cpus, Long.toString(pid))
                .redirectErrorStream(true)
                .start();
        try {
            String output = new String(taskset.getInputStream().readAllBytes()).strip();
            if (!taskset.waitFor(10, TimeUnit.SECONDS) || taskset.exitValue() != 0) {
                throw new IllegalStateException("taskset failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The lean closed-loop load: one thread for all clients, reused buffers, no XML parsing. */
    static final class Load {

        private static final int ACCOUNTS_PER_CLIENT = 64;
        private static final int RECENT_ORDERS = 8;
        private static final int RESTING_ORDERS = 16;
        /** One order in this many crosses the spread (and trades); the others rest until their cancel. */
        private static final int MARKETABLE_ONE_IN = 8;

        private static final String[] SYMBOLS = {"SPY", "BTC", "AGORA"};
        private static final Duration TIMEOUT = Duration.ofSeconds(30);

        private final InetSocketAddress address;
        private final String prefix;
        private final ExchangeProcessCpu cpu;
        private long nextAccount;

        Load(String host, int port, String prefix, ExchangeProcessCpu cpu) {
            this.address = new InetSocketAddress(host, port);
            this.prefix = prefix;
            this.cpu = cpu;
        }

        /** Runs {@code clients} closed-loop clients of one kind for {@code duration}, the server on {@code cores}. */
        Outcome run(Kind kind, int clients, Duration duration, int cores) throws IOException {
            List<Client> all = new ArrayList<>();
            for (int c = 0; c < clients; c++) all.add(new Client(kind, c));
            if (kind == Kind.TRANSACTIONS) {
                for (Client client : all) client.setUpAccounts();
            }
            ExchangeProcessCpu.Sample cpuBefore = cpu.sample();
            long begin = System.nanoTime();
            new ExchangeLoadDriver(address, TIMEOUT).run(all, duration);
            double seconds = (System.nanoTime() - begin) / 1e9;
            ExchangeProcessCpu.Sample cpuAfter = cpu.sample();
            LatencyHistogram latencies = new LatencyHistogram();
            long requests = 0;
            long failures = 0;
            long errors = 0;
            for (Client client : all) {
                latencies.add(client.latencies);
                requests += client.requests;
                failures += client.failures;
                errors += client.errorElements;
            }
            ExchangeProcessCpu.PerRequest cpuPerRequest = cpuAfter.since(cpuBefore, requests);
            return new Outcome(cores, kind, clients, seconds, requests, failures, errors, latencies, cpuPerRequest);
        }

        private synchronized long nextAccountNumber() {
            return nextAccount++;
        }

        final class Client implements ExchangeLoadDriver.Conversation {
            private final Kind kind;
            private final SplittableRandom random;
            private final byte[] body = new byte[1024];
            private final byte[] frame = new byte[1100];
            private final byte[] reply = new byte[8192];
            private final ByteBuffer request = ByteBuffer.wrap(frame);
            private final ByteBuffer replies = ByteBuffer.wrap(reply);
            private final StringBuilder xml = new StringBuilder(512);
            private final String[] accounts = new String[ACCOUNTS_PER_CLIENT];
            /** Each account's latest orders, any state: what queries ask about. */
            private final long[][] recent = new long[ACCOUNTS_PER_CLIENT][RECENT_ORDERS];

            private final int[] recentCount = new int[ACCOUNTS_PER_CLIENT];
            /** Each account's orders placed away from the market and not yet canceled, newest last. */
            private final long[][] resting = new long[ACCOUNTS_PER_CLIENT][RESTING_ORDERS];

            private final int[] restingCount = new int[ACCOUNTS_PER_CLIENT];
            final LatencyHistogram latencies = new LatencyHistogram();
            long requests;
            long failures;
            long errorElements;
            private int replyLength;
            /** The account of the request in flight (-1 for a create), and whether its order crosses. */
            private int account = -1;

            private boolean marketable;

            Client(Kind kind, int index) {
                this.kind = kind;
                this.random = new SplittableRandom(31L * index + kind.ordinal());
            }

            void setUpAccounts() {
                StringBuilder xml = new StringBuilder(256);
                for (int a = 0; a < ACCOUNTS_PER_CLIENT; a++) {
                    String id = newAccountId();
                    accounts[a] = id;
                    xml.setLength(0);
                    xml.append("<create><account id=\"").append(id).append("\" balance=\"100000000000\"/>");
                    for (String symbol : SYMBOLS) {
                        xml.append("<symbol sym=\"")
                                .append(symbol)
                                .append("\"><account id=\"")
                                .append(id)
                                .append("\">100000000</account></symbol>");
                    }
                    xml.append("</create>");
                    int n = put(body, 0, xml);
                    try {
                        exchange(n);
                    } catch (IOException e) {
                        throw new IllegalStateException("account set-up failed", e);
                    }
                    if (count("<error") > 0) {
                        throw new IllegalStateException("account set-up was refused: "
                                + new String(reply, 0, Math.min(replyLength, 512), StandardCharsets.UTF_8));
                    }
                    // One resting order, so that the account's first measured transaction has one to cancel.
                    xml.setLength(0);
                    xml.append("<transactions id=\"").append(id).append("\">");
                    appendOrder(xml, 1, 9_000);
                    xml.append("</transactions>");
                    n = put(body, 0, xml);
                    try {
                        exchange(n);
                    } catch (IOException e) {
                        throw new IllegalStateException("account set-up failed", e);
                    }
                    if (openedId() <= 0) throw new IllegalStateException("the set-up order was refused");
                    remember(a, openedId(), true);
                }
            }

            /** {@code <order sym=".." amount=".." limit="dollars.cents"/>} */
            private void appendOrder(StringBuilder xml, int amount, int cents) {
                xml.append("<order sym=\"")
                        .append(SYMBOLS[random.nextInt(SYMBOLS.length)])
                        .append("\" amount=\"")
                        .append(amount)
                        .append("\" limit=\"")
                        .append(cents / 100)
                        .append('.');
                int fraction = cents % 100;
                if (fraction < 10) xml.append('0');
                xml.append(fraction).append("\"/>");
            }

            private void remember(int account, long orderId, boolean rests) {
                if (orderId <= 0) return;
                recent[account][recentCount[account]++ % RECENT_ORDERS] = orderId;
                if (!rests) return;
                if (restingCount[account] == RESTING_ORDERS) {
                    // Full: forget the oldest (it stays open in the book, which is fine).
                    System.arraycopy(resting[account], 1, resting[account], 0, RESTING_ORDERS - 1);
                    restingCount[account]--;
                }
                resting[account][restingCount[account]++] = orderId;
            }

            private String newAccountId() {
                // Digits only: the protocol's account ids are decimal strings.
                return Long.toString(prefixNumber()) + nextAccountNumber();
            }

            private long prefixNumber() {
                long h = 7;
                for (int i = 0; i < prefix.length(); i++) h = h * 31 + prefix.charAt(i);
                return 1_000_000 + Math.floorMod(h, 8_000_000);
            }

            @Override
            public ByteBuffer nextRequest() {
                xml.setLength(0);
                account = -1;
                marketable = false;
                if (kind == Kind.CREATES) {
                    String id = newAccountId();
                    xml.append("<create><account id=\"")
                            .append(id)
                            .append("\" balance=\"")
                            .append(1_000 + random.nextInt(1_000_000))
                            .append("\"/><symbol sym=\"")
                            .append(SYMBOLS[random.nextInt(SYMBOLS.length)])
                            .append("\"><account id=\"")
                            .append(id)
                            .append("\">")
                            .append(1 + random.nextInt(1_000))
                            .append("</account></symbol></create>");
                } else {
                    account = random.nextInt(ACCOUNTS_PER_CLIENT);
                    boolean buy = random.nextBoolean();
                    // Resting orders never cross: bids 95.00-99.99, asks 100.00-104.99. A marketable order is
                    // small (1-10 shares) and crosses the whole spread, so it trades against the best resting
                    // orders and mostly leaves them partly open: their owners' cancels still succeed.
                    marketable = restingCount[account] > 1 && random.nextInt(MARKETABLE_ONE_IN) == 0;
                    int shares = marketable ? 1 + random.nextInt(10) : 1 + random.nextInt(100);
                    int cents;
                    if (marketable) cents = buy ? 10_500 : 9_500;
                    else cents = buy ? 9_500 + random.nextInt(500) : 10_000 + random.nextInt(500);
                    xml.append("<transactions id=\"").append(accounts[account]).append("\">");
                    appendOrder(xml, buy ? shares : -shares, cents);
                    long query = recent[account][random.nextInt(Math.min(recentCount[account], RECENT_ORDERS))];
                    // None left only after a failed request lost one: the cancel of a query target then errs.
                    long cancel = restingCount[account] > 0 ? resting[account][--restingCount[account]] : query;
                    xml.append("<query id=\"")
                            .append(query)
                            .append("\"/><cancel id=\"")
                            .append(cancel)
                            .append("\"/></transactions>");
                }
                request.clear().limit(frame(put(body, 0, xml)));
                return request;
            }

            @Override
            public ByteBuffer replyBuffer() {
                return replies;
            }

            @Override
            public void replied(long nanos) {
                replyLength = replies.position();
                latencies.recordNanos(nanos);
                requests++;
                if (replyLength < 9 || reply[0] != '<' || reply[1] != 'r') failures++;
                // Expected only when marketable orders filled a resting order completely before its cancel.
                errorElements += count("<error");
                if (account >= 0) remember(account, openedId(), !marketable);
            }

            @Override
            public void failed(long nanos) {
                latencies.recordNanos(nanos);
                requests++;
                failures++;
            }

            private int put(byte[] target, int offset, CharSequence text) {
                int n = text.length();
                for (int i = 0; i < n; i++) target[offset + i] = (byte) text.charAt(i);
                return n;
            }

            /** Frames the body as the protocol wants it (length line, then the XML); returns the frame's length. */
            private int frame(int bodyLength) {
                int p = 0;
                String length = Integer.toString(bodyLength);
                for (int i = 0; i < length.length(); i++) frame[p++] = (byte) length.charAt(i);
                frame[p++] = '\n';
                System.arraycopy(body, 0, frame, p, bodyLength);
                return p + bodyLength;
            }

            /** One blocking request, for setting accounts up before a run. */
            private void exchange(int bodyLength) throws IOException {
                int p = frame(bodyLength);
                try (Socket socket = new Socket()) {
                    socket.setTcpNoDelay(true);
                    int timeout = Math.toIntExact(TIMEOUT.toMillis());
                    socket.setSoTimeout(timeout);
                    socket.connect(address, timeout);
                    socket.getOutputStream().write(frame, 0, p);
                    InputStream in = socket.getInputStream();
                    int total = 0;
                    int read;
                    while ((read = in.read(reply, total, reply.length - total)) > 0) {
                        total += read;
                        if (total == reply.length) break;
                    }
                    replyLength = total;
                }
            }

            private long count(String needle) {
                byte[] pattern = needle.getBytes(StandardCharsets.US_ASCII);
                long found = 0;
                outer:
                for (int i = 0; i + pattern.length <= replyLength; i++) {
                    for (int j = 0; j < pattern.length; j++) {
                        if (reply[i + j] != pattern[j]) continue outer;
                    }
                    found++;
                }
                return found;
            }

            /** The id of {@code <opened ... id="T"/>}, or -1. */
            private long openedId() {
                byte[] opened = {'<', 'o', 'p', 'e', 'n', 'e', 'd'};
                outer:
                for (int i = 0; i + opened.length <= replyLength; i++) {
                    for (int j = 0; j < opened.length; j++) {
                        if (reply[i + j] != opened[j]) continue outer;
                    }
                    for (int k = i; k + 4 < replyLength && reply[k] != '>'; k++) {
                        if (reply[k] == ' '
                                && reply[k + 1] == 'i'
                                && reply[k + 2] == 'd'
                                && reply[k + 3] == '='
                                && reply[k + 4] == '"') {
                            long id = 0;
                            for (int d = k + 5; d < replyLength && reply[d] >= '0' && reply[d] <= '9'; d++) {
                                id = id * 10 + (reply[d] - '0');
                            }
                            return id;
                        }
                    }
                    return -1;
                }
                return -1;
            }
        }
    }
}
