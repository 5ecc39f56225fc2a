package dev.agora.exchange.xml;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.exchange.support.ExchangeServiceTest;
import dev.agora.exchange.support.Ids;
import dev.agora.exchange.support.ReferenceExchange;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Thousands of random requests from many concurrent connections, every reply checked against a simple
 * reference model. Each client trades on its own accounts and symbols, so while the server interleaves
 * all clients in one total order, each client's requests apply in the client's own order and the model
 * can predict every reply exactly. At the end cash and shares are conserved, in memory and in PostgreSQL.
 */
class RandomizedExchangeTest extends ExchangeServiceTest {

    private static final int CLIENTS = 16;
    private static final int REQUESTS_PER_CLIENT = 250;
    private static final Pattern OPENED_ID = Pattern.compile("<opened [^>]*id=\"(\\d+)\"/>");

    @Autowired
    DataSource dataSource;

    @Test
    void everyReplyMatchesTheModelAndEverythingIsConserved() throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                long seed = 1_000L + c;
                done.add(clients.submit(() -> {
                    new Client(seed).run();
                    return null;
                }));
            }
            for (Future<?> client : done) client.get(3, TimeUnit.MINUTES);
        } finally {
            clients.shutdownNow();
        }
    }

    private final class Client {
        private final Random random;
        private final ReferenceExchange model = new ReferenceExchange();
        private final List<String> accounts = new ArrayList<>();
        private final List<String> symbols = List.of(Ids.symbol(), Ids.symbol());
        private final List<Long> orderIds = new ArrayList<>();
        private BigDecimal createdCash = BigDecimal.ZERO;
        private final Map<String, BigDecimal[]> createdShares = new java.util.HashMap<>();

        Client(long seed) {
            this.random = new Random(seed);
        }

        void run() {
            for (int i = 0; i < 4; i++) createAccount();
            for (String symbol : symbols) createdShares.put(symbol, new BigDecimal[] {BigDecimal.ZERO});
            for (int i = 0; i < REQUESTS_PER_CLIENT; i++) {
                int kind = random.nextInt(100);
                if (kind < 3) createAccount();
                else if (kind < 10) addShares();
                else if (kind < 80) transactions();
                else if (kind < 90) queries();
                else cancels();
            }
            checkConservation();
        }

        private void exchange(String request, String expectedBody) {
            String reply = timeless(xml.send(request));
            String expected = expectedBody.isEmpty() ? "<results/>" : "<results>" + expectedBody + "</results>";
            assertThat(reply).as(request).isEqualTo(expected);
        }

        private void createAccount() {
            String id = random.nextInt(10) == 0 && !accounts.isEmpty() ? pick(accounts) : Ids.account();
            String balance = random.nextInt(20) == 0 ? "-5" : Integer.toString(1_000 + random.nextInt(50_000));
            String expected = model.createAccount(id, balance);
            if (expected.startsWith("<created")) {
                accounts.add(id);
                createdCash = createdCash.add(new BigDecimal(balance));
            }
            exchange("<create><account id=\"" + id + "\" balance=\"" + balance + "\"/></create>", expected);
        }

        private void addShares() {
            String symbol = pick(symbols);
            String account = random.nextInt(15) == 0 ? Ids.account() : pick(accounts);
            String shares =
                    random.nextInt(15) == 0 ? "0" : (1 + random.nextInt(200)) + (random.nextBoolean() ? "" : ".5");
            String expected = model.addShares(symbol, account, shares);
            if (expected.startsWith("<created")) {
                BigDecimal[] total = createdShares.get(symbol);
                total[0] = total[0].add(new BigDecimal(shares));
            }
            exchange(
                    "<create><symbol sym=\"" + symbol + "\"><account id=\"" + account + "\">" + shares
                            + "</account></symbol></create>",
                    expected);
        }

        private void transactions() {
            String account = pick(accounts);
            int children = 1 + random.nextInt(3);
            StringBuilder request = new StringBuilder("<transactions id=\"" + account + "\">");
            List<String[]> orders = new ArrayList<>();
            for (int i = 0; i < children; i++) {
                String symbol = pick(symbols);
                String amount =
                        random.nextInt(40) == 0 ? "0" : (random.nextBoolean() ? "" : "-") + (1 + random.nextInt(30));
                String limit = (90 + random.nextInt(21)) + (random.nextInt(4) == 0 ? ".25" : "");
                orders.add(new String[] {symbol, amount, limit});
                request.append("<order sym=\"")
                        .append(symbol)
                        .append("\" amount=\"")
                        .append(amount)
                        .append("\" limit=\"")
                        .append(limit)
                        .append("\"/>");
            }
            request.append("</transactions>");
            String reply = xml.send(request.toString());
            List<Long> ids = new ArrayList<>();
            Matcher opened = OPENED_ID.matcher(reply);
            while (opened.find()) ids.add(Long.parseLong(opened.group(1)));
            orderIds.addAll(ids);
            StringBuilder expected = new StringBuilder();
            for (String[] order : orders) expected.append(model.order(account, order[0], order[1], order[2], ids));
            assertThat(timeless(reply)).as(request.toString()).isEqualTo("<results>" + expected + "</results>");
        }

        private void queries() {
            if (orderIds.isEmpty()) return;
            long id = pick(orderIds);
            String owner = model.orders.get(id).account();
            String account = random.nextInt(10) == 0 ? pick(accounts) : owner;
            exchange(
                    "<transactions id=\"" + account + "\"><query id=\"" + id + "\"/></transactions>",
                    model.query(account, Long.toString(id)));
        }

        private void cancels() {
            if (orderIds.isEmpty()) return;
            long id = pick(orderIds);
            String owner = model.orders.get(id).account();
            String account = random.nextInt(10) == 0 ? pick(accounts) : owner;
            exchange(
                    "<transactions id=\"" + account + "\"><cancel id=\"" + id + "\"/></transactions>",
                    model.cancel(account, Long.toString(id)));
        }

        private void checkConservation() {
            // The model conserves (its rules are simple enough to see), and the server agrees with it...
            assertThat(model.cash(accounts)).isEqualByComparingTo(createdCash);
            JdbcTemplate jdbc = new JdbcTemplate(dataSource);
            for (String account : accounts) {
                BigDecimal stored =
                        jdbc.queryForObject("SELECT balance FROM account WHERE id = ?", BigDecimal.class, account);
                assertThat(stored).as("balance of " + account).isEqualByComparingTo(model.balances.get(account));
            }
            // ...and the durable state on its own conserves too.
            String in =
                    String.join(",", accounts.stream().map(a -> "'" + a + "'").toList());
            BigDecimal storedCash = jdbc.queryForObject(
                    "SELECT (SELECT coalesce(sum(balance), 0) FROM account WHERE id IN (" + in + ")) + "
                            + "(SELECT coalesce(sum(open_shares * limit_price), 0) FROM exchange_order "
                            + "WHERE amount > 0 AND account_id IN (" + in + "))",
                    BigDecimal.class);
            assertThat(storedCash).isEqualByComparingTo(createdCash);
            for (String symbol : symbols) {
                BigDecimal storedShares = jdbc.queryForObject(
                        "SELECT (SELECT coalesce(sum(shares), 0) FROM position WHERE symbol = ?) + "
                                + "(SELECT coalesce(sum(open_shares), 0) FROM exchange_order WHERE amount < 0 AND symbol = ?)",
                        BigDecimal.class,
                        symbol,
                        symbol);
                assertThat(storedShares)
                        .as("shares of " + symbol)
                        .isEqualByComparingTo(createdShares.get(symbol)[0]);
            }
        }

        private <T> T pick(List<T> from) {
            return from.get(random.nextInt(from.size()));
        }
    }
}
