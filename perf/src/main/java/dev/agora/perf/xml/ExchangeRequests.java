package dev.agora.perf.xml;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Random requests as the seed's scalability script makes them: a <em>create</em> holds one account and
 * one position; a <em>transactions</em> holds one order, one query and one cancel. Ids are drawn from small
 * ranges so that some requests fail (duplicate account, unknown account, other account's order), as in
 * the seed. Amounts and prices are exact decimals. One generator per client thread (not thread-safe),
 * sharing the list of order ids the server has opened.
 */
public final class ExchangeRequests {

    private static final List<String> SYMBOLS = List.of("SPY", "BTC", "T5asdf", "AGORA");

    private final Random random;
    private final int accountRange;
    private final List<Long> openedOrders;

    public ExchangeRequests(long seed, int accountRange, List<Long> openedOrders) {
        this.random = new Random(seed);
        this.accountRange = accountRange;
        this.openedOrders = openedOrders;
    }

    public static List<Long> sharedOrderIds() {
        return new CopyOnWriteArrayList<>();
    }

    /** Half creates, half transactions, like the seed. */
    public String next() {
        return random.nextBoolean() ? create() : transactions();
    }

    public String create() {
        String account = account();
        BigDecimal balance = BigDecimal.valueOf(1_000 + random.nextInt(1_000_000));
        String symbol = symbol();
        int shares = 1 + random.nextInt(1_000);
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<create>\n  <account id=\"" + account + "\" balance=\""
                + balance + "\"/>\n  <symbol sym=\"" + symbol + "\">\n    <account id=\"" + account + "\">" + shares
                + "</account>\n  </symbol>\n</create>\n";
    }

    public String transactions() {
        String account = account();
        String symbol = symbol();
        int amount = (1 + random.nextInt(100)) * (random.nextBoolean() ? 1 : -1);
        BigDecimal limit = BigDecimal.valueOf(50 + random.nextInt(10_000), 2).setScale(2, RoundingMode.UNNECESSARY);
        long query = knownOrRandomOrder();
        long cancel = knownOrRandomOrder();
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<transactions id=\"" + account + "\">\n  <order sym=\""
                + symbol + "\" amount=\"" + amount + "\" limit=\"" + limit.toPlainString() + "\"/>\n  <query id=\""
                + query + "\"/>\n  <cancel id=\"" + cancel + "\"/>\n</transactions>\n";
    }

    /** Remembers the order ids of {@code <opened ... id="T"/>} replies so later queries and cancels can hit them. */
    public void learnFrom(String reply) {
        for (long id : ExchangeReplies.openedOrderIds(reply)) openedOrders.add(id);
    }

    private long knownOrRandomOrder() {
        int known = openedOrders.size();
        if (known > 0 && random.nextInt(4) > 0) return openedOrders.get(random.nextInt(known));
        return 1 + random.nextInt(Math.max(1, known * 2));
    }

    private String account() {
        return Integer.toString(1 + random.nextInt(accountRange));
    }

    private String symbol() {
        return SYMBOLS.get(random.nextInt(SYMBOLS.size()));
    }
}
