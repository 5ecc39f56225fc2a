package dev.agora.perf.experiment.partitions;

import dev.agora.perf.load.HttpDriver;
import dev.agora.perf.load.HttpReply;
import dev.agora.perf.xml.ExchangeXmlClient;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Exchange traders: XML traders that speak to the exchange instances directly (the one that answered last first, the
 * others when it refuses or stays silent) and REST traders that go through the frontends with an {@code
 * Idempotency-Key} per order, sent again with the same key after a failure. Each trader has two accounts and a
 * symbol of its own, so its cash and shares are conserved on their own. Records every acknowledged order with what
 * it said (account, symbol, amount, limit), the instance that acknowledged an XML one, and the executions that
 * queries of acknowledged orders showed.
 */
final class Traders {

    static final BigDecimal START_CASH = new BigDecimal("1000000");
    static final BigDecimal START_SHARES = new BigDecimal("100000");
    private static final int ACCOUNTS = 2;
    /** Account ranges of 10,000 ids each (a run's traders use the first few ids of one). */
    private static final long RANGES = 10_000;
    /** Where this JVM's runs start among the account ranges: random, so runs of separate JVMs rarely meet. */
    private static final long FIRST_RUN = Math.floorMod(System.nanoTime(), RANGES);

    private static final AtomicLong RUNS = new AtomicLong();
    private static final int REST_ATTEMPTS = 6;
    private static final Pattern OPENED = Pattern.compile("<opened [^>]*id=\"(\\d+)\"/>");
    private static final Pattern REST_ID = Pattern.compile("^\\{\"id\":(\\d+),");
    private static final Pattern EXECUTED =
            Pattern.compile("<executed shares=\"([^\"]+)\" price=\"([^\"]+)\" time=\"(\\d+)\"/>");

    /**
     * An order the exchange acknowledged. {@code via} is "xml:exchange-N" or "rest"; {@code sentNanos} when it was
     * first sent (a REST order's first attempt), {@code ackedNanos} when its acknowledgement arrived.
     */
    record Order(
            long id,
            String account,
            String symbol,
            BigDecimal amount,
            BigDecimal limit,
            String via,
            long sentNanos,
            long ackedNanos) {
        boolean sameAs(Order other) {
            return id == other.id
                    && account.equals(other.account)
                    && symbol.equals(other.symbol)
                    && amount.compareTo(other.amount) == 0
                    && limit.compareTo(other.limit) == 0;
        }
    }

    /** An execution a query of an acknowledged order showed. */
    record Execution(long orderId, BigDecimal shares, BigDecimal price, long time) {}

    /** A trader's accounts and symbol: what conservation is checked over. */
    record Book(List<String> accounts, String symbol) {}

    private final List<Integer> xmlPorts;
    private final List<String> exchangeNames;
    private final Duration xmlTimeout;
    private final AtomicInteger lastAnswered = new AtomicInteger();
    private final Calls calls;
    final List<Book> books = new ArrayList<>();
    /** Every acknowledgement, in the order they came: the same id twice is a finding unless both say the same. */
    final ConcurrentLinkedQueue<Order> acknowledged = new ConcurrentLinkedQueue<>();

    final ConcurrentLinkedQueue<Execution> executions = new ConcurrentLinkedQueue<>();
    final Map<String, AtomicInteger> refusedByRules = new ConcurrentHashMap<>();

    Traders(List<Integer> xmlPorts, List<String> exchangeNames, Duration xmlTimeout, Calls calls) {
        this.xmlPorts = List.copyOf(xmlPorts);
        this.exchangeNames = List.copyOf(exchangeNames);
        this.xmlTimeout = xmlTimeout;
        this.calls = calls;
    }

    /**
     * Opens each trader's accounts and gives them cash and shares of its symbol, over XML on whichever instance
     * answers; then trades until {@code stop}, {@code xml} XML traders and, when {@code frontends} are given, {@code
     * rest} REST traders through them.
     */
    List<Thread> start(
            int xml,
            int rest,
            List<String> frontends,
            Supplier<String> authorization,
            HttpDriver http,
            AtomicBoolean stop)
            throws IOException {
        List<Thread> threads = new ArrayList<>();
        List<Book> newBooks = newBooks(xml + rest);
        for (int t = 0; t < xml + rest; t++) {
            Book book = newBooks.get(t);
            create(book);
            books.add(book);
            Random random = new Random(Long.parseLong(book.accounts().getFirst()));
            boolean overXml = t < xml;
            int number = t;
            threads.add(Thread.ofPlatform()
                    .daemon()
                    .name((overXml ? "xml" : "rest") + "-trader-" + t)
                    .start(() -> {
                        int step = 0;
                        while (!stop.get()) {
                            if (overXml) xmlStep(book, random, step++);
                            else restStep(book, random, frontends.get(number % frontends.size()), authorization, http);
                        }
                    }));
        }
        return threads;
    }

    /**
     * A run's books: accounts and symbols of their own, never those of an earlier run in this JVM (the two cases of
     * ExchangeLeaderPartitionTest share one cluster). Two runs on one symbol trade against each other's resting
     * orders: cash moves between their accounts and the symbol holds both runs' shares, so neither run's checks add up.
     */
    static List<Book> newBooks(int traders) {
        long base = 800_000_000L + Math.floorMod(FIRST_RUN + RUNS.getAndIncrement(), RANGES) * 10_000L;
        String tag = Long.toString(base / 10_000, 36).toUpperCase();
        List<Book> books = new ArrayList<>();
        for (int t = 0; t < traders; t++) {
            List<String> accounts = new ArrayList<>();
            for (int a = 0; a < ACCOUNTS; a++) accounts.add(Long.toString(base + t * 10L + a));
            books.add(new Book(accounts, "NEM" + t + "X" + tag));
        }
        return books;
    }

    private void create(Book book) throws IOException {
        StringBuilder create = new StringBuilder("<create>");
        for (String account : book.accounts()) {
            create.append("<account id=\"")
                    .append(account)
                    .append("\" balance=\"")
                    .append(START_CASH)
                    .append("\"/>");
        }
        create.append("<symbol sym=\"").append(book.symbol()).append("\">");
        for (String account : book.accounts()) {
            create.append("<account id=\"")
                    .append(account)
                    .append("\">")
                    .append(START_SHARES)
                    .append("</account>");
        }
        String request = create.append("</symbol></create>").toString();
        for (int attempt = 0; attempt < 20; attempt++) {
            Answer answer = sendXml(request, Duration.ofSeconds(10));
            if (answer.reply() != null) {
                if (answer.reply().contains("<error")) {
                    throw new IOException("could not open the accounts of " + book.symbol() + ": " + answer.reply());
                }
                return;
            }
            Buyers.sleep(500);
        }
        throw new IOException("could not open the accounts of " + book.symbol());
    }

    private void xmlStep(Book book, Random random, int step) {
        String account = book.accounts().get(random.nextInt(ACCOUNTS));
        Order acknowledged = null;
        if (step % 5 == 4) {
            queryOne(account);
            return;
        }
        BigDecimal amount = BigDecimal.valueOf((random.nextBoolean() ? 1 : -1) * (1 + random.nextInt(5)));
        BigDecimal limit = BigDecimal.valueOf(95 + random.nextInt(11));
        long started = System.nanoTime();
        Answer answer = sendXml(
                "<transactions id=\"" + account + "\"><order sym=\"" + book.symbol() + "\" amount=\"" + amount
                        + "\" limit=\"" + limit + "\"/></transactions>",
                xmlTimeout);
        String reply = answer.reply();
        if (reply == null) {
            calls.record("xml", started, false);
            Buyers.sleep(20);
            return;
        }
        calls.record("xml", started, true);
        Matcher opened = OPENED.matcher(reply);
        if (opened.find()) {
            acknowledged = new Order(
                    Long.parseLong(opened.group(1)),
                    account,
                    book.symbol(),
                    amount,
                    limit,
                    "xml:" + exchangeNames.get(answer.port()),
                    started,
                    System.nanoTime());
            this.acknowledged.add(acknowledged);
        } else {
            refusedByRules.computeIfAbsent("xml", k -> new AtomicInteger()).incrementAndGet();
        }
    }

    /** Queries the latest acknowledged order of the account and keeps the executions the answer shows. */
    private void queryOne(String account) {
        Order latest = null;
        for (Order order : acknowledged) {
            if (order.account().equals(account)) latest = order;
        }
        if (latest == null) return;
        Answer answer = sendXml(
                "<transactions id=\"" + account + "\"><query id=\"" + latest.id() + "\"/></transactions>", xmlTimeout);
        if (answer.reply() == null || !answer.reply().contains("<status id=\"" + latest.id() + "\">")) return;
        Matcher executed = EXECUTED.matcher(answer.reply());
        while (executed.find()) {
            executions.add(new Execution(
                    latest.id(),
                    // A sell's executions show negative shares; the table holds each execution once, unsigned.
                    new BigDecimal(executed.group(1)).abs(),
                    new BigDecimal(executed.group(2)),
                    Long.parseLong(executed.group(3))));
        }
    }

    private void restStep(Book book, Random random, String frontend, Supplier<String> authorization, HttpDriver http) {
        String account = book.accounts().get(random.nextInt(ACCOUNTS));
        BigDecimal amount = BigDecimal.valueOf((random.nextBoolean() ? 1 : -1) * (1 + random.nextInt(5)));
        BigDecimal limit = BigDecimal.valueOf(95 + random.nextInt(11));
        String key = "nemesis-" + UUID.randomUUID().toString().substring(0, 18);
        String body = "{\"symbol\":\"" + book.symbol() + "\",\"amount\":" + amount + ",\"limit\":" + limit + "}";
        long first = System.nanoTime();
        for (int attempt = 0; attempt < REST_ATTEMPTS; attempt++) {
            long started = System.nanoTime();
            HttpReply reply = http.postJson(
                    frontend + "/api/exchange/accounts/" + account + "/orders",
                    body,
                    Map.of("Authorization", authorization.get(), "Idempotency-Key", key));
            if (reply.status() == 201) {
                calls.record("rest", started, true);
                Matcher id = REST_ID.matcher(reply.body());
                if (!id.find()) throw new IllegalStateException("no order id in " + reply.body());
                acknowledged.add(new Order(
                        Long.parseLong(id.group(1)),
                        account,
                        book.symbol(),
                        amount,
                        limit,
                        "rest",
                        first,
                        System.nanoTime()));
                return;
            }
            if (reply.status() >= 400 && reply.status() < 500 && reply.status() != 429) {
                calls.record("rest", started, true);
                refusedByRules
                        .computeIfAbsent("rest " + reply.status(), k -> new AtomicInteger())
                        .incrementAndGet();
                return;
            }
            calls.record("rest", started, false);
            Buyers.sleep(100);
        }
    }

    /** A reply and the index of the instance that gave it; a null reply when none answered. */
    record Answer(String reply, int port) {}

    /**
     * Tries the instance that answered last first, then the others; an answer that is an error of the whole request
     * ("exchange is not active") counts as no answer, so the next instance is tried.
     */
    Answer sendXml(String request, Duration timeout) {
        int first = lastAnswered.get();
        for (int attempt = 0; attempt < xmlPorts.size(); attempt++) {
            int index = (first + attempt) % xmlPorts.size();
            try {
                String reply = new ExchangeXmlClient("127.0.0.1", xmlPorts.get(index), timeout).send(request);
                if (reply.startsWith("<results>") && !notActive(reply)) {
                    lastAnswered.set(index);
                    return new Answer(reply, index);
                }
            } catch (IOException refusedOrSilent) {
                // A standby does not listen; a cut-off or frozen one does not answer: try the next.
            }
        }
        return new Answer(null, -1);
    }

    /** A refusal of the whole request by an instance that is not (or no longer) the active one, or overloaded. */
    private static boolean notActive(String reply) {
        return reply.startsWith("<results><error>")
                || reply.contains("exchange is not active")
                || reply.contains("exchange failed, retry")
                || reply.contains("did not answer in time")
                || reply.contains("exchange is overloaded");
    }
}
