package dev.agora.perf.experiment.partitions;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The histories checked against the databases, Jepsen-style: what the clients were told against what PostgreSQL holds
 * once the faults are healed and the cluster has settled.
 */
final class Checks {

    private static final int PROBLEMS_KEPT = 50;

    private Checks() {}

    /** Where a database is and who may read it. */
    record Database(String jdbcUrl, String username, String password) {
        Connection connect() throws SQLException {
            return DriverManager.getConnection(jdbcUrl, username, password);
        }
    }

    /** The bookstore's history: the four figures and what was wrong. */
    record Bookstore(int acknowledged, int lost, int duplicated, long oversold, int unknown, List<String> problems) {
        boolean ok() {
            return lost == 0 && duplicated == 0 && oversold == 0 && problems.isEmpty();
        }

        Map<String, Object> json() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("acknowledged", acknowledged);
            json.put("lost", lost);
            json.put("duplicated", duplicated);
            json.put("oversold", oversold);
            json.put("unknownOutcome", unknown);
            json.put("problems", problems);
            return json;
        }
    }

    /** The exchange's history. */
    record Exchange(
            int acknowledged,
            int executionsAcknowledged,
            int lost,
            boolean cashConserved,
            boolean sharesConserved,
            int leadersAtOnce,
            int leadersAtOnceByHealth,
            long epochs,
            List<String> problems) {
        boolean ok() {
            return lost == 0 && cashConserved && sharesConserved && leadersAtOnce <= 1 && problems.isEmpty();
        }

        Map<String, Object> json() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("acknowledged", acknowledged);
            json.put("executionsAcknowledged", executionsAcknowledged);
            json.put("lost", lost);
            json.put("cashConserved", cashConserved);
            json.put("sharesConserved", sharesConserved);
            json.put("leadersAtOnce", leadersAtOnce);
            json.put("leadersAtOnceByHealth", leadersAtOnceByHealth);
            json.put("epochsSeen", epochs);
            json.put("problems", problems);
            return json;
        }
    }

    /**
     * Every acknowledged buy is in the orders database exactly once, CONFIRMED or REJECTED as its answer said (once no
     * order of the run is PENDING any more, at most {@code settle}); no buy of unknown outcome is there twice; each
     * book's stock dropped by exactly the quantities its CONFIRMED orders hold, which is also what the catalog's
     * reservations say, and never below what was there (no oversell).
     *
     * @param initialStock the run's books and the stock each had before the load
     */
    static Bookstore bookstore(
            List<Buyers.Buy> buys, Map<Long, Long> initialStock, Database orders, Database catalog, Duration settle)
            throws SQLException, InterruptedException {
        List<String> problems = new ArrayList<>();
        try (Connection ordersDb = orders.connect();
                Connection catalogDb = catalog.connect()) {
            long deadline = System.nanoTime() + settle.toNanos();
            long pending;
            while ((pending = count(
                                    ordersDb,
                                    "SELECT count(*) FROM orders WHERE status = 'PENDING' AND idempotency_key"
                                            + " LIKE 'nemesis-%'"))
                            > 0
                    && System.nanoTime() < deadline) {
                Thread.sleep(500);
            }
            if (pending > 0) problems.add(pending + " orders still PENDING after " + settle.toSeconds() + " s");

            Map<String, List<String[]>> rows = new HashMap<>();
            try (var statement = ordersDb.createStatement();
                    ResultSet row = statement.executeQuery(
                            "SELECT idempotency_key, status, book_id, quantity FROM orders WHERE idempotency_key LIKE"
                                    + " 'nemesis-%'")) {
                while (row.next()) {
                    rows.computeIfAbsent(row.getString(1), k -> new ArrayList<>())
                            .add(new String[] {row.getString(2), row.getString(3), row.getString(4)});
                }
            }
            int acknowledged = 0;
            int lost = 0;
            int duplicated = 0;
            int unknown = 0;
            for (Buyers.Buy buy : buys) {
                List<String[]> found = rows.getOrDefault(buy.key(), List.of());
                if (found.size() > 1) {
                    duplicated++;
                    note(problems, "buy " + buy.key() + " is in the orders database " + found.size() + " times");
                }
                if (buy.answer() == Buyers.Answer.UNKNOWN) {
                    unknown++;
                    continue;
                }
                acknowledged++;
                if (found.isEmpty()) {
                    lost++;
                    note(problems, "acknowledged buy " + buy.key() + " (" + buy.answer() + ") is not in the database");
                    continue;
                }
                String[] order = found.getFirst();
                boolean same = order[0].equals(buy.answer().name())
                        && Long.parseLong(order[1]) == buy.bookId()
                        && Integer.parseInt(order[2]) == buy.quantity();
                if (!same) {
                    lost++;
                    note(
                            problems,
                            "buy " + buy.key() + " was answered " + buy.answer() + " for book " + buy.bookId() + " x"
                                    + buy.quantity() + ", the database says " + String.join(" ", order));
                }
            }
            long oversold = 0;
            for (Map.Entry<Long, Long> book : initialStock.entrySet()) {
                long id = book.getKey();
                long stock = count(catalogDb, "SELECT stock FROM books WHERE id = " + id);
                long confirmed = count(
                        ordersDb,
                        "SELECT coalesce(sum(quantity), 0) FROM orders WHERE status = 'CONFIRMED' AND book_id = " + id);
                long reserved = count(
                        catalogDb,
                        "SELECT coalesce(sum(quantity), 0) FROM reservations WHERE outcome = 'RESERVED' AND book_id = "
                                + id);
                long dropped = book.getValue() - stock;
                if (confirmed > book.getValue()) oversold += confirmed - book.getValue();
                if (dropped != confirmed || dropped != reserved) {
                    note(
                            problems,
                            "book " + id + ": stock dropped by " + dropped + ", CONFIRMED orders hold " + confirmed
                                    + ", the catalog's reservations " + reserved);
                }
            }
            return new Bookstore(acknowledged, lost, duplicated, oversold, unknown, List.copyOf(problems));
        }
    }

    /**
     * Each account's balance, what its open buys reserve, its cash from executions and its orders by the epoch they
     * were placed in: what a failed cash check needs to be traced to a batch, a leader and a takeover.
     */
    private static String accountsInDetail(Connection db, String in) throws SQLException {
        StringBuilder detail = new StringBuilder("accounts in detail:");
        try (var statement = db.createStatement();
                ResultSet rows = statement.executeQuery("SELECT a.id, a.balance, "
                        + "(SELECT coalesce(sum(open_shares * limit_price), 0) FROM exchange_order o"
                        + "  WHERE o.account_id = a.id AND o.amount > 0), "
                        + "(SELECT string_agg(coalesce(epoch::text, '-') || ':' || n, ' ' ORDER BY epoch) FROM"
                        + "  (SELECT epoch, count(*) AS n FROM exchange_order o WHERE o.account_id = a.id"
                        + "   GROUP BY epoch) e), "
                        + "(SELECT coalesce(sum((CASE WHEN s.account_id = a.id THEN x.shares * x.price ELSE 0 END)"
                        + "  - (CASE WHEN b.account_id = a.id THEN x.shares * x.price ELSE 0 END)), 0) FROM execution x"
                        + "  JOIN exchange_order b ON b.id = x.buy_order_id JOIN exchange_order s ON s.id = x.sell_order_id"
                        + "  WHERE b.account_id = a.id OR s.account_id = a.id) "
                        + "FROM account a WHERE a.id IN (" + in + ") ORDER BY a.id")) {
            while (rows.next()) {
                detail.append("\n  ")
                        .append(rows.getString(1))
                        .append(": balance ")
                        .append(rows.getBigDecimal(2))
                        .append(", open buys reserve ")
                        .append(rows.getBigDecimal(3))
                        .append(", cash from executions ")
                        .append(rows.getBigDecimal(5))
                        .append(", orders by epoch ")
                        .append(rows.getString(4));
            }
        }
        return detail.toString();
    }

    /**
     * Every acknowledged order is in the exchange's database as it was acknowledged (and no id was acknowledged for
     * two different orders, which two leaders at once would do); every execution a query showed is there; each
     * trader's cash (balances plus what its open buys reserve) and shares (positions plus open sells) are what it
     * started with; and the acknowledged work came from one leader at a time ({@link #leadersAtOnce}: by the lease
     * epoch each order was committed at). What the leader watch saw (the instances' own belief that they lead, which
     * a deposed leader may hold for up to a lease after its successor took over, answering nothing it could commit) is
     * reported beside it, not checked.
     */
    static Exchange exchange(Traders traders, List<LeaderWatch.Observation> leaders, Database exchange)
            throws SQLException {
        List<String> problems = new ArrayList<>();
        Map<Long, Traders.Order> byId = new HashMap<>();
        int lost = 0;
        for (Traders.Order order : traders.acknowledged) {
            Traders.Order earlier = byId.putIfAbsent(order.id(), order);
            if (earlier != null && !earlier.sameAs(order)) {
                lost++;
                note(
                        problems,
                        "order id " + order.id() + " was acknowledged for two orders: " + earlier + " and " + order);
            }
        }
        boolean cash = true;
        boolean shares = true;
        Map<Long, Long> epochs = new HashMap<>();
        try (Connection db = exchange.connect();
                PreparedStatement find = db.prepareStatement(
                        "SELECT account_id, symbol, amount, limit_price, epoch FROM exchange_order WHERE id = ?");
                PreparedStatement executed = db.prepareStatement("SELECT count(*) FROM execution WHERE (buy_order_id ="
                        + " ? OR sell_order_id = ?) AND shares = ? AND price = ? AND executed_at = ?")) {
            for (Traders.Order order : byId.values()) {
                find.setLong(1, order.id());
                try (ResultSet row = find.executeQuery()) {
                    if (!row.next()) {
                        lost++;
                        note(problems, "acknowledged order " + order + " is not in the database");
                    } else if (!row.getString(1).equals(order.account())
                            || !row.getString(2).equals(order.symbol())
                            || row.getBigDecimal(3).compareTo(order.amount()) != 0
                            || row.getBigDecimal(4).compareTo(order.limit()) != 0) {
                        lost++;
                        note(
                                problems,
                                "acknowledged order " + order + " is another in the database: " + row.getString(1) + " "
                                        + row.getString(2) + " " + row.getBigDecimal(3) + " @ " + row.getBigDecimal(4));
                    } else {
                        long epoch = row.getLong(5);
                        if (!row.wasNull()) epochs.put(order.id(), epoch);
                    }
                }
            }
            for (Traders.Execution execution : traders.executions) {
                executed.setLong(1, execution.orderId());
                executed.setLong(2, execution.orderId());
                executed.setBigDecimal(3, execution.shares());
                executed.setBigDecimal(4, execution.price());
                executed.setLong(5, execution.time());
                try (ResultSet row = executed.executeQuery()) {
                    row.next();
                    if (row.getLong(1) == 0) {
                        lost++;
                        note(problems, "acknowledged execution " + execution + " is not in the database");
                    }
                }
            }
            for (Traders.Book book : traders.books) {
                String in = String.join(
                        ",", book.accounts().stream().map(a -> "'" + a + "'").toList());
                try (var statement = db.createStatement();
                        ResultSet totals = statement.executeQuery("SELECT "
                                + "(SELECT sum(balance) FROM account WHERE id IN (" + in + ")) + "
                                + "(SELECT coalesce(sum(open_shares * limit_price), 0) FROM exchange_order "
                                + "  WHERE amount > 0 AND account_id IN (" + in + ")), "
                                + "(SELECT sum(shares) FROM position WHERE symbol = '" + book.symbol() + "') + "
                                + "(SELECT coalesce(sum(open_shares), 0) FROM exchange_order WHERE amount < 0 AND"
                                + " symbol = '" + book.symbol() + "')")) {
                    totals.next();
                    BigDecimal accounts = BigDecimal.valueOf(book.accounts().size());
                    BigDecimal cashNow = totals.getBigDecimal(1);
                    BigDecimal sharesNow = totals.getBigDecimal(2);
                    if (cashNow == null || cashNow.compareTo(Traders.START_CASH.multiply(accounts)) != 0) {
                        cash = false;
                        note(problems, "cash of " + book.symbol() + "'s traders is " + cashNow);
                        note(problems, accountsInDetail(db, in));
                    }
                    if (sharesNow == null || sharesNow.compareTo(Traders.START_SHARES.multiply(accounts)) != 0) {
                        shares = false;
                        note(problems, "shares of " + book.symbol() + " are " + sharesNow);
                    }
                }
            }
        }
        int leadersAtOnce = leadersAtOnce(byId.values(), epochs, problems);
        return new Exchange(
                byId.size(),
                traders.executions.size(),
                lost,
                cash,
                shares,
                leadersAtOnce,
                LeaderWatch.leadersAtOnce(leaders),
                LeaderWatch.epochsSeen(leaders),
                List.copyOf(problems));
    }

    /**
     * Whether two instances acknowledged work in overlapping epochs, from the acknowledged orders and the lease epoch
     * each was committed at (every batch is fenced with its leader's epoch and writes it with the orders it places):
     * 2 when an order sent after another order's acknowledgement had arrived was committed at an EARLIER epoch than
     * that one (an old leader still committing after its successor had acknowledged work), or when one epoch's XML
     * orders were acknowledged by two instances; 1 when acknowledged work came from one leader at a time; 0 when no
     * acknowledged order carries an epoch.
     */
    static int leadersAtOnce(Collection<Traders.Order> orders, Map<Long, Long> epochs, List<String> problems) {
        List<Traders.Order> known =
                orders.stream().filter(o -> epochs.containsKey(o.id())).toList();
        if (known.isEmpty()) return 0;
        int overlaps = 0;
        Map<Long, String> instanceOfEpoch = new HashMap<>();
        for (Traders.Order order : known) {
            if (!order.via().startsWith("xml:")) continue;
            String earlier = instanceOfEpoch.putIfAbsent(epochs.get(order.id()), order.via());
            if (earlier != null && !earlier.equals(order.via())) {
                overlaps++;
                note(
                        problems,
                        "epoch " + epochs.get(order.id()) + " acknowledged orders through " + earlier + " and "
                                + order.via());
            }
        }
        List<Traders.Order> byAck = known.stream()
                .sorted(Comparator.comparingLong(Traders.Order::ackedNanos))
                .toList();
        List<Traders.Order> bySend = known.stream()
                .sorted(Comparator.comparingLong(Traders.Order::sentNanos))
                .toList();
        int next = 0;
        Traders.Order latest = null;
        for (Traders.Order order : bySend) {
            while (next < byAck.size() && byAck.get(next).ackedNanos() - order.sentNanos() < 0) {
                Traders.Order acked = byAck.get(next++);
                if (latest == null || epochs.get(acked.id()) > epochs.get(latest.id())) latest = acked;
            }
            if (latest != null && epochs.get(order.id()) < epochs.get(latest.id())) {
                overlaps++;
                note(
                        problems,
                        "order " + order + " was committed at epoch " + epochs.get(order.id()) + ", although it was"
                                + " sent after order " + latest.id() + " had been acknowledged at epoch "
                                + epochs.get(latest.id()));
            }
        }
        return overlaps > 0 ? 2 : 1;
    }

    private static long count(Connection db, String query) throws SQLException {
        try (var statement = db.createStatement();
                ResultSet row = statement.executeQuery(query)) {
            row.next();
            return row.getLong(1);
        }
    }

    private static void note(List<String> problems, String problem) {
        if (problems.size() < PROBLEMS_KEPT) problems.add(problem);
    }
}
