package dev.agora.perf.experiment.exchange;

import dev.agora.perf.load.HttpDriver;
import dev.agora.perf.load.HttpReply;
import dev.agora.perf.xml.ExchangeXmlClient;
import java.io.IOException;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The clients of {@link ExchangeFailoverExperiment}: XML traders that know every exchange instance's port and move to
 * the next one when theirs refuses or does not answer (only the active instance listens), and REST traders that go
 * through a frontend (which follows the active instance by its readiness). Each trader has accounts and a symbol of
 * its own, so conservation of its cash and shares can be checked on its own; it records only what was acknowledged.
 */
final class ExchangeTraders {

    static final BigDecimal START_CASH = new BigDecimal("1000000");
    static final BigDecimal START_SHARES = new BigDecimal("100000");
    private static final int ACCOUNTS = 2;
    private static final Pattern OPENED = Pattern.compile("<opened [^>]*id=\"(\\d+)\"/>");
    private static final Pattern REST_ID = Pattern.compile("^\\{\"id\":(\\d+),");

    /** One request's outcome as the load saw it. */
    record Outcome(long startedNanos, long endedNanos, boolean acknowledged, String via) {}

    /** An order the exchange acknowledged: its id and account. */
    record Acknowledged(long id, String account) {}

    private final List<Integer> xmlPorts;
    private static final Duration VERIFICATION_TIMEOUT = Duration.ofSeconds(30);

    private final Duration xmlTimeout;
    /** Index into {@link #xmlPorts} that answered last: where XML traders send first. */
    private final AtomicInteger activePort = new AtomicInteger();
    /** Per port, until when it is tried last because a request to it timed out. */
    private final long[] silentUntil;

    private static final Duration SILENT_FOR = Duration.ofSeconds(3);
    /** How long a request waits for an instance that let one time out, once every other instance refused. */
    private static final Duration SILENT_RETRY = Duration.ofMillis(100);

    final ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
    final Map<Long, Acknowledged> acknowledged = new ConcurrentHashMap<>();
    final List<Trader> traders = new ArrayList<>();
    final AtomicLong refusedByRules = new AtomicLong();

    ExchangeTraders(List<Integer> xmlPorts, Duration xmlTimeout) {
        this.xmlPorts = List.copyOf(xmlPorts);
        this.xmlTimeout = xmlTimeout;
        this.silentUntil = new long[xmlPorts.size()];
        java.util.Arrays.fill(silentUntil, System.nanoTime());
    }

    /** Creates the traders' accounts and symbols over XML (on whichever instance answers). */
    void setUp(int xmlTraders, int restTraders, String frontend, String adminAuthorization, HttpDriver http)
            throws IOException {
        long base = 700_000_000L + (ProcessHandle.current().pid() % 1000) * 1000 + System.nanoTime() % 1000 * 100_000L;
        for (int t = 0; t < xmlTraders + restTraders; t++) {
            Trader trader = t < xmlTraders
                    ? new XmlTrader(t, base)
                    : new RestTrader(t, base, frontend, adminAuthorization, http);
            StringBuilder create = new StringBuilder("<create>");
            for (String account : trader.accounts) {
                create.append("<account id=\"")
                        .append(account)
                        .append("\" balance=\"")
                        .append(START_CASH)
                        .append("\"/>");
            }
            create.append("<symbol sym=\"").append(trader.symbol).append("\">");
            for (String account : trader.accounts) {
                create.append("<account id=\"")
                        .append(account)
                        .append("\">")
                        .append(START_SHARES)
                        .append("</account>");
            }
            String reply = sendXml(create.append("</symbol></create>").toString());
            if (reply == null || reply.contains("<error")) {
                throw new IllegalStateException("could not set up trader " + t + ": " + reply);
            }
            traders.add(trader);
        }
    }

    /** Every trader trades on a thread of its own until {@code stop}. */
    List<Thread> start(AtomicBoolean stop) {
        List<Thread> threads = new ArrayList<>();
        for (Trader trader : traders) {
            threads.add(Thread.ofPlatform().name("trader-" + trader.number).start(() -> {
                while (!stop.get()) trader.step();
            }));
        }
        return threads;
    }

    /**
     * One XML request to whichever instance listens: the one that answered last first, then the others. Null when
     * none answered.
     */
    String sendXml(String request) {
        return sendXmlVia(request).reply();
    }

    /** A reply and the index (in the port list) of the instance that gave it; a null reply when none answered. */
    record Answer(String reply, int port) {}

    /**
     * Tries the instance that answered last first, then the others; an instance that let a request time out (frozen)
     * is tried last for a while, and then with a short wait, so that clients do not queue behind it while its
     * successor takes over.
     */
    Answer sendXmlVia(String request) {
        return sendXmlVia(request, xmlTimeout);
    }

    private Answer sendXmlVia(String request, Duration timeout) {
        int first = activePort.get();
        List<Integer> order = new ArrayList<>();
        long now = System.nanoTime();
        for (int attempt = 0; attempt < xmlPorts.size(); attempt++) {
            int index = (first + attempt) % xmlPorts.size();
            if (now - silentUntil[index] >= 0) order.add(index);
        }
        int listening = order.size();
        for (int attempt = 0; attempt < xmlPorts.size(); attempt++) {
            int index = (first + attempt) % xmlPorts.size();
            if (!order.contains(index)) order.add(index);
        }
        for (int position = 0; position < order.size(); position++) {
            int index = order.get(position);
            // A silent instance, asked only after the others refused, gets a short wait: it is most likely frozen,
            // and its successor, which refused a moment ago, is about to listen.
            Duration wait = position < listening || SILENT_RETRY.compareTo(timeout) > 0 ? timeout : SILENT_RETRY;
            try {
                String reply = new ExchangeXmlClient("127.0.0.1", xmlPorts.get(index), wait).send(request);
                if (reply.startsWith("<results>") && !reply.startsWith("<results><error>")) {
                    activePort.set(index);
                    return new Answer(reply, index);
                }
            } catch (java.net.SocketTimeoutException silent) {
                if (position < listening) silentUntil[index] = System.nanoTime() + SILENT_FOR.toNanos();
            } catch (IOException refused) {
                // A standby does not listen: try the next instance.
            }
        }
        return new Answer(null, -1);
    }

    abstract class Trader {
        final int number;
        final List<String> accounts = new ArrayList<>();
        final String symbol;
        final Random random;

        Trader(int number, long base) {
            this.number = number;
            this.symbol =
                    "FAIL" + number + "X" + Long.toString(base % 100_000, 36).toUpperCase();
            this.random = new Random(base + number);
            for (int a = 0; a < ACCOUNTS; a++) accounts.add(Long.toString(base + number * 10L + a));
        }

        String account() {
            return accounts.get(random.nextInt(accounts.size()));
        }

        int amount() {
            return (random.nextBoolean() ? 1 : -1) * (1 + random.nextInt(5));
        }

        int limit() {
            return 95 + random.nextInt(11);
        }

        abstract void step();
    }

    final class XmlTrader extends Trader {
        XmlTrader(int number, long base) {
            super(number, base);
        }

        @Override
        void step() {
            String account = account();
            long started = System.nanoTime();
            Answer answer = sendXmlVia("<transactions id=\"" + account + "\"><order sym=\"" + symbol + "\" amount=\""
                    + amount() + "\" limit=\"" + limit() + "\"/></transactions>");
            long ended = System.nanoTime();
            String reply = answer.reply();
            if (reply == null) {
                outcomes.add(new Outcome(started, ended, false, "xml"));
                pause();
                return;
            }
            Matcher opened = OPENED.matcher(reply);
            if (opened.find()) {
                long id = Long.parseLong(opened.group(1));
                acknowledged.put(id, new Acknowledged(id, account));
            } else {
                refusedByRules.incrementAndGet();
            }
            outcomes.add(new Outcome(started, ended, true, "xml"));
        }
    }

    final class RestTrader extends Trader {
        private final String frontend;
        private final String authorization;
        private final HttpDriver http;

        RestTrader(int number, long base, String frontend, String authorization, HttpDriver http) {
            super(number, base);
            this.frontend = frontend;
            this.authorization = authorization;
            this.http = http;
        }

        @Override
        void step() {
            String account = account();
            long started = System.nanoTime();
            HttpReply reply = http.postJson(
                    frontend + "/api/exchange/accounts/" + account + "/orders",
                    "{\"symbol\":\"" + symbol + "\",\"amount\":" + amount() + ",\"limit\":" + limit() + "}",
                    Map.of("Authorization", authorization));
            long ended = System.nanoTime();
            if (reply.status() == 201) {
                Matcher id = REST_ID.matcher(reply.body());
                if (!id.find()) throw new IllegalStateException("no order id in " + reply.body());
                long orderId = Long.parseLong(id.group(1));
                acknowledged.put(orderId, new Acknowledged(orderId, account));
                outcomes.add(new Outcome(started, ended, true, "rest"));
            } else if (reply.status() >= 400 && reply.status() < 500) {
                refusedByRules.incrementAndGet();
                outcomes.add(new Outcome(started, ended, true, "rest"));
            } else {
                outcomes.add(new Outcome(started, ended, false, "rest"));
                pause();
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Every acknowledged order is in the database with its account, and the current leader answers a query of it;
     * each trader's cash (balances plus what open buys reserve) and shares (positions plus open sells) are what it
     * started with. Returns the problems found, empty when none.
     */
    List<String> verify(String jdbcUrl, String user, String password) throws SQLException {
        List<String> problems = new ArrayList<>();
        try (Connection db = DriverManager.getConnection(jdbcUrl, user, password);
                PreparedStatement order = db.prepareStatement("SELECT account_id FROM exchange_order WHERE id = ?")) {
            for (Acknowledged ack : acknowledged.values()) {
                order.setLong(1, ack.id());
                try (ResultSet row = order.executeQuery()) {
                    if (!row.next()) problems.add("acknowledged order " + ack.id() + " is not in the database");
                    else if (!row.getString(1).equals(ack.account())) {
                        problems.add(
                                "order " + ack.id() + " belongs to " + row.getString(1) + ", not " + ack.account());
                    }
                }
            }
            for (Trader trader : traders) problems.addAll(conservation(db, trader));
        }
        problems.addAll(inTheLeadersBooks());
        return problems;
    }

    private List<String> conservation(Connection db, Trader trader) throws SQLException {
        String in = String.join(
                ",", trader.accounts.stream().map(a -> "'" + a + "'").toList());
        try (var statement = db.createStatement();
                ResultSet totals = statement.executeQuery("SELECT "
                        + "(SELECT sum(balance) FROM account WHERE id IN (" + in + ")) + "
                        + "(SELECT coalesce(sum(open_shares * limit_price), 0) FROM exchange_order "
                        + "  WHERE amount > 0 AND account_id IN (" + in + ")), "
                        + "(SELECT sum(shares) FROM position WHERE symbol = '" + trader.symbol + "') + "
                        + "(SELECT coalesce(sum(open_shares), 0) FROM exchange_order WHERE amount < 0 AND symbol = '"
                        + trader.symbol + "')")) {
            totals.next();
            BigDecimal accounts = BigDecimal.valueOf(trader.accounts.size());
            List<String> problems = new ArrayList<>();
            if (totals.getBigDecimal(1).compareTo(START_CASH.multiply(accounts)) != 0) {
                problems.add("cash of " + trader.symbol + " is " + totals.getBigDecimal(1));
            }
            if (totals.getBigDecimal(2).compareTo(START_SHARES.multiply(accounts)) != 0) {
                problems.add("shares of " + trader.symbol + " are " + totals.getBigDecimal(2));
            }
            return problems;
        }
    }

    /**
     * A query of the check after the load, which nothing times: a leader that took over moments ago reads its
     * closed orders from PostgreSQL with a cold JVM, and a thousand of them can take longer than a trader's
     * timeout, so this one waits {@link #VERIFICATION_TIMEOUT} and asks up to three times.
     */
    private String verificationQuery(String request) {
        for (int attempt = 0; attempt < 3; attempt++) {
            String reply = sendXmlVia(request, VERIFICATION_TIMEOUT).reply();
            if (reply != null) return reply;
        }
        return null;
    }

    /** Queries every acknowledged order at the current leader, a thousand per request. */
    private List<String> inTheLeadersBooks() {
        List<String> problems = new ArrayList<>();
        Map<String, List<Long>> byAccount = new java.util.TreeMap<>();
        for (Acknowledged ack : acknowledged.values()) {
            byAccount.computeIfAbsent(ack.account(), a -> new ArrayList<>()).add(ack.id());
        }
        for (Map.Entry<String, List<Long>> account : byAccount.entrySet()) {
            List<Long> ids = account.getValue();
            for (int from = 0; from < ids.size(); from += 1000) {
                List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + 1000));
                StringBuilder request = new StringBuilder("<transactions id=\"" + account.getKey() + "\">");
                for (long id : chunk) request.append("<query id=\"").append(id).append("\"/>");
                String reply =
                        verificationQuery(request.append("</transactions>").toString());
                if (reply == null) {
                    problems.add("no exchange answered the queries of account " + account.getKey());
                    continue;
                }
                for (long id : chunk) {
                    if (!reply.contains("<status id=\"" + id + "\">")) {
                        problems.add("the leader does not know acknowledged order " + id);
                    }
                }
            }
        }
        return problems;
    }
}
