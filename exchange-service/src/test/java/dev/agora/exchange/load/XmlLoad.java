package dev.agora.exchange.load;

import dev.agora.exchange.support.XmlClient;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A quick closed-loop load tool for the XML protocol (the official client and experiments live in perf):
 * {@code clients} threads, one connection per request, for {@code seconds}; prints throughput and latency
 * percentiles. Modes follow the seed's scalability test: {@code create} sends one account and one position
 * per request, {@code transactions} one order, one query and one cancel per request.
 *
 * <p>Usage: {@code XmlLoad <port> <create|transactions> <clients> <seconds>}
 */
public final class XmlLoad {

    private static final Pattern OPENED = Pattern.compile("<opened [^>]*id=\"(\\d+)\"");
    private static final int MAX_SAMPLES = 4_000_000;

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String mode = args[1];
        int clients = Integer.parseInt(args[2]);
        int seconds = Integer.parseInt(args[3]);
        XmlClient xml = XmlClient.local(port);
        String run = Long.toString(System.currentTimeMillis() % 100_000_000);

        List<String> accounts = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            String account = "9" + run + String.format("%03d", c);
            accounts.add(account);
            xml.send("<create><account id=\"" + account + "\" balance=\"1000000000000\"/><symbol sym=\"LOAD\">"
                    + "<account id=\"" + account + "\">1000000000</account></symbol></create>");
        }

        long[][] samples = new long[clients][];
        int[] counts = new int[clients];
        AtomicLong errors = new AtomicLong();
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        long started = System.nanoTime();
        List<Thread> threads = new ArrayList<>();
        AtomicLong nextAccount = new AtomicLong();
        for (int c = 0; c < clients; c++) {
            int client = c;
            samples[c] = new long[MAX_SAMPLES / clients];
            threads.add(Thread.ofPlatform().start(() -> {
                SplittableRandom random = new SplittableRandom(client);
                String account = accounts.get(client);
                long lastOrder = 0;
                long[] mine = samples[client];
                while (System.nanoTime() < deadline && counts[client] < mine.length) {
                    String request;
                    if (mode.equals("create")) {
                        String id = "8" + run + nextAccount.incrementAndGet();
                        request = "<create><account id=\"" + id + "\" balance=\"1000\"/><symbol sym=\"LOAD\">"
                                + "<account id=\"" + id + "\">100</account></symbol></create>";
                    } else {
                        String amount = (random.nextBoolean() ? "" : "-") + (1 + random.nextInt(100));
                        String limit = Integer.toString(95 + random.nextInt(11));
                        long cancel = Math.max(1, lastOrder - random.nextInt(5));
                        request = "<transactions id=\"" + account + "\"><order sym=\"LOAD\" amount=\"" + amount
                                + "\" limit=\"" + limit + "\"/><query id=\"" + Math.max(1, lastOrder) + "\"/>"
                                + "<cancel id=\"" + cancel + "\"/></transactions>";
                    }
                    long sent = System.nanoTime();
                    String reply;
                    try {
                        reply = xml.send(request);
                    } catch (RuntimeException e) {
                        errors.incrementAndGet();
                        continue;
                    }
                    mine[counts[client]++] = System.nanoTime() - sent;
                    if (reply.startsWith("<results><error>")) errors.incrementAndGet();
                    Matcher opened = OPENED.matcher(reply);
                    if (opened.find()) lastOrder = Long.parseLong(opened.group(1));
                }
            }));
        }
        for (Thread thread : threads) thread.join();
        double elapsed = (System.nanoTime() - started) / 1e9;

        int total = Arrays.stream(counts).sum();
        long[] all = new long[total];
        int at = 0;
        for (int c = 0; c < clients; c++) {
            System.arraycopy(samples[c], 0, all, at, counts[c]);
            at += counts[c];
        }
        Arrays.sort(all);
        System.out.printf(
                "mode=%s clients=%d requests=%d errors=%d seconds=%.1f throughput=%.0f req/s "
                        + "p50=%.2f ms p90=%.2f ms p99=%.2f ms p99.9=%.2f ms max=%.2f ms%n",
                mode,
                clients,
                total,
                errors.get(),
                elapsed,
                total / elapsed,
                percentile(all, 0.50),
                percentile(all, 0.90),
                percentile(all, 0.99),
                percentile(all, 0.999),
                all.length == 0 ? 0 : all[all.length - 1] / 1e6);
    }

    private static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) return 0;
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
    }
}
