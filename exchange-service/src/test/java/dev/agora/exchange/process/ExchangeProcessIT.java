package dev.agora.exchange.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agora.exchange.support.XmlClient;
import dev.agora.local.cluster.FreePorts;
import dev.agora.local.process.ServiceProcess;
import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The exchange as a real OS process on a real PostgreSQL: killed with SIGKILL under concurrent load and
 * restarted, it keeps every effect it acknowledged and nothing half-applied; its XML port speaks TLS when configured.
 * A standby taking over when the active instance dies is {@link ExchangeFailoverIT}'s, on the pair it starts once.
 */
class ExchangeProcessIT {

    private static final Duration READY = Duration.ofSeconds(120);
    private static final Pattern OPENED = Pattern.compile("<opened [^>]*id=\"(\\d+)\"/>");
    private static final Pattern EXECUTED = Pattern.compile("<executed ");
    private static final int CLIENTS = 8;
    private static final int ACCOUNTS_PER_CLIENT = 4;
    private static final BigDecimal START_CASH = new BigDecimal("100000");
    private static final BigDecimal START_SHARES = new BigDecimal("1000");

    private final ExchangeInstances exchanges = new ExchangeInstances("exchange_crash");

    @BeforeEach
    void emptyDatabase() throws SQLException {
        exchanges.emptyDatabase();
    }

    @AfterEach
    void stopProcesses() {
        exchanges.close();
    }

    @Test
    void everyAcknowledgedEffectSurvivesKillMinus9() throws Exception {
        int tcpPort = FreePorts.next();
        ServiceProcess exchange = exchanges.exchange("exchange-crash", tcpPort);
        exchange.startAndAwaitReady(READY);
        XmlClient xml = XmlClient.local(tcpPort);

        List<Trader> traders = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) traders.add(new Trader(c, xml));
        for (Trader trader : traders) trader.setUp();

        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        List<Future<?>> running = new ArrayList<>();
        for (Trader trader : traders) running.add(pool.submit(() -> trader.trade(stop)));
        Thread.sleep(3_000);
        exchange.kill();
        stop.set(true);
        for (Future<?> trader : running) trader.get(60, TimeUnit.SECONDS);
        pool.shutdownNow();

        long acknowledged = traders.stream().mapToLong(t -> t.opened.size()).sum();
        assertThat(acknowledged).as("orders acknowledged before the kill").isGreaterThan(50);
        assertThat(traders.stream().mapToLong(t -> t.createdDuringLoad.size()).sum())
                .as("accounts acknowledged before the kill")
                .isPositive();

        exchange.startAndAwaitReady(READY);
        try (Connection db = connect()) {
            for (Trader trader : traders) trader.verify(db);
            verifyNothingHalfApplied(db);
        }
        // The restarted engine serves the recovered state, and trading goes on conserving everything.
        for (Trader trader : traders) {
            trader.checkQueriesAfterRestart();
            trader.tradeFor(20);
        }
        try (Connection db = connect()) {
            for (Trader trader : traders) trader.verifyConservation(db);
            verifyNothingHalfApplied(db);
        }
    }

    /**
     * The XML port over TLS as a deployment turns it on: PEM files described as a Spring Boot SSL bundle in the
     * environment, the bundle named by AGORA_EXCHANGE_TLS_BUNDLE. An admin certificate from the bundle's CA creates
     * accounts, a trading one acts for the account its subject names and creates nothing; a client without one gets
     * nothing.
     */
    @Test
    void theXmlPortSpeaksTlsFromASpringSslBundle() throws Exception {
        X509Bundle authority = new CertificateBuilder()
                .subject("CN=IT clients CA")
                .setIsCertificateAuthority(true)
                .ecp256()
                .buildSelfSigned();
        X509Bundle server = new CertificateBuilder()
                .subject("CN=exchange")
                .addSanIpAddress("127.0.0.1")
                .addExtendedKeyUsageServerAuth()
                .ecp256()
                .buildIssuedBy(authority);
        X509Bundle desk = new CertificateBuilder()
                .subject("CN=desk,UID=6001")
                .addExtendedKeyUsageClientAuth()
                .ecp256()
                .buildIssuedBy(authority);
        X509Bundle admin = new CertificateBuilder()
                .subject("CN=admin,OU=exchange-admin")
                .addExtendedKeyUsageClientAuth()
                .ecp256()
                .buildIssuedBy(authority);
        Path pem = Files.createDirectories(Path.of("target", "it-tls"));
        Path chain = Files.writeString(pem.resolve("server.crt"), server.getCertificatePathPEM());
        Path key = Files.writeString(pem.resolve("server.key"), server.getPrivateKeyPEM());
        Path clientsCa = Files.writeString(pem.resolve("clients-ca.crt"), authority.getCertificatePEM());
        int tcpPort = FreePorts.next();
        ServiceProcess exchange = exchanges.exchange("exchange-tls", tcpPort, tls -> tls.env(
                        "SPRING_SSL_BUNDLE_PEM_EXCHANGEXML_KEYSTORE_CERTIFICATE", "file:" + chain.toAbsolutePath())
                .env("SPRING_SSL_BUNDLE_PEM_EXCHANGEXML_KEYSTORE_PRIVATEKEY", "file:" + key.toAbsolutePath())
                .env("SPRING_SSL_BUNDLE_PEM_EXCHANGEXML_TRUSTSTORE_CERTIFICATE", "file:" + clientsCa.toAbsolutePath())
                .env("AGORA_EXCHANGE_TLS_BUNDLE", "exchangexml"));
        exchange.startAndAwaitReady(READY);

        assertThat(sendOverTls(tcpPort, authority, desk, "<create><account id=\"6001\" balance=\"5\"/></create>"))
                .isEqualTo("<results><error id=\"6001\">creating accounts and shares needs an admin certificate"
                        + "</error></results>");
        assertThat(sendOverTls(
                        tcpPort,
                        authority,
                        admin,
                        "<create><account id=\"6001\" balance=\"5\"/><account id=\"6002\" balance=\"5\"/></create>"))
                .isEqualTo("<results><created id=\"6001\"/><created id=\"6002\"/></results>");
        assertThat(sendOverTls(
                        tcpPort,
                        authority,
                        desk,
                        "<transactions id=\"6002\"><order sym=\"X\" amount=\"1\" limit=\"1\"/></transactions>"))
                .isEqualTo("<results><error sym=\"X\" amount=\"1\" limit=\"1\">account is not named by this"
                        + " connection's certificate</error></results>");
        assertThatThrownBy(() -> sendOverTls(tcpPort, authority, null, "<create/>"))
                .isInstanceOf(IOException.class);
    }

    private static String sendOverTls(int port, X509Bundle authority, X509Bundle client, String xml) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(
                client == null ? null : client.toKeyManagerFactory().getKeyManagers(),
                authority.toTrustManagerFactory().getTrustManagers(),
                null);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            socket.startHandshake();
            byte[] body = xml.getBytes(StandardCharsets.UTF_8);
            socket.getOutputStream().write((body.length + "\n").getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().write(body);
            socket.getOutputStream().flush();
            String reply = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (reply.isEmpty()) throw new IOException("closed without a reply");
            return reply;
        }
    }

    private Connection connect() throws SQLException {
        return exchanges.connect();
    }

    /** Every order's shares are accounted for: amount = open + canceled + executed, nothing torn. */
    private static void verifyNothingHalfApplied(Connection db) throws SQLException {
        try (Statement statement = db.createStatement();
                ResultSet torn = statement.executeQuery(
                        """
                        SELECT o.id FROM exchange_order o
                        LEFT JOIN execution e ON e.buy_order_id = o.id OR e.sell_order_id = o.id
                        GROUP BY o.id, o.amount, o.open_shares, o.canceled_shares
                        HAVING abs(o.amount) <> o.open_shares + coalesce(o.canceled_shares, 0) + coalesce(sum(e.shares), 0)
                        """)) {
            assertThat(torn.next()).as("an order whose shares do not add up").isFalse();
        }
    }

    /** One client: its own accounts and symbol, so its effects can be checked on their own. */
    private static final class Trader {
        private final int number;
        private final XmlClient xml;
        private final Random random;
        private final String symbol;
        private final List<String> accounts = new ArrayList<>();
        private final Map<Long, String> opened = new ConcurrentHashMap<>();
        private final List<Long> canceled = new ArrayList<>();
        private final Map<Long, Integer> executionsSeen = new ConcurrentHashMap<>();
        /** Accounts created (and acknowledged) during the load; they never trade, so their balance is fixed. */
        private final List<String> createdDuringLoad = new ArrayList<>();

        private int created;

        Trader(int number, XmlClient xml) {
            this.number = number;
            this.xml = xml;
            this.random = new Random(number);
            this.symbol = "CRASH" + number;
        }

        void setUp() {
            StringBuilder create = new StringBuilder("<create>");
            for (int a = 0; a < ACCOUNTS_PER_CLIENT; a++) {
                String id = (number + 1) + "00" + a;
                accounts.add(id);
                create.append("<account id=\"")
                        .append(id)
                        .append("\" balance=\"")
                        .append(START_CASH)
                        .append("\"/>");
            }
            create.append("<symbol sym=\"").append(symbol).append("\">");
            for (String id : accounts)
                create.append("<account id=\"")
                        .append(id)
                        .append("\">")
                        .append(START_SHARES)
                        .append("</account>");
            create.append("</symbol></create>");
            assertThat(xml.send(create.toString())).doesNotContain("error");
        }

        /** Trades until told to stop or the server goes away; records only what was acknowledged. */
        Void trade(AtomicBoolean stop) {
            while (!stop.get()) {
                if (!step()) return null;
            }
            return null;
        }

        void tradeFor(int requests) {
            for (int i = 0; i < requests; i++) assertThat(step()).isTrue();
        }

        private boolean step() {
            String account = accounts.get(random.nextInt(accounts.size()));
            String request;
            int kind = random.nextInt(10);
            if (random.nextInt(20) == 0) return createAccountDuringLoad();
            List<Long> mine = opened.entrySet().stream()
                    .filter(e -> e.getValue().equals(account))
                    .map(Map.Entry::getKey)
                    .toList();
            if (kind < 6 || mine.isEmpty()) {
                String amount = (random.nextBoolean() ? "" : "-") + (1 + random.nextInt(20));
                String limit = Integer.toString(95 + random.nextInt(11));
                request = "<transactions id=\"" + account + "\"><order sym=\"" + symbol + "\" amount=\"" + amount
                        + "\" limit=\"" + limit + "\"/></transactions>";
            } else if (kind < 8) {
                request = "<transactions id=\"" + account + "\"><cancel id=\"" + mine.get(random.nextInt(mine.size()))
                        + "\"/></transactions>";
            } else {
                request = "<transactions id=\"" + account + "\"><query id=\"" + mine.get(random.nextInt(mine.size()))
                        + "\"/></transactions>";
            }
            String reply;
            try {
                reply = xml.send(request);
            } catch (UncheckedIOException serverGone) {
                return false;
            }
            if (!reply.startsWith("<results>") || reply.contains("<results><error>")) return false;
            Matcher matcher = OPENED.matcher(reply);
            if (matcher.find()) opened.put(Long.parseLong(matcher.group(1)), account);
            Matcher id = Pattern.compile("<(canceled|status) id=\"(\\d+)\">").matcher(reply);
            if (id.find()) {
                long orderId = Long.parseLong(id.group(2));
                if (id.group(1).equals("canceled")) {
                    synchronized (canceled) {
                        canceled.add(orderId);
                    }
                }
                executionsSeen.merge(
                        orderId, (int) EXECUTED.matcher(reply).results().count(), Math::max);
            }
            return true;
        }

        private boolean createAccountDuringLoad() {
            String id = (number + 1) + "77" + created++;
            String reply;
            try {
                reply = xml.send("<create><account id=\"" + id + "\" balance=\"" + id + "\"/></create>");
            } catch (UncheckedIOException serverGone) {
                return false;
            }
            if (!reply.equals("<results><created id=\"" + id + "\"/></results>")) return false;
            createdDuringLoad.add(id);
            return true;
        }

        void verify(Connection db) throws SQLException {
            for (String id : createdDuringLoad) {
                try (var statement = db.prepareStatement("SELECT balance FROM account WHERE id = ?")) {
                    statement.setString(1, id);
                    try (ResultSet row = statement.executeQuery()) {
                        assertThat(row.next()).as("acknowledged account " + id).isTrue();
                        assertThat(row.getBigDecimal(1)).isEqualByComparingTo(id);
                    }
                }
            }
            for (Map.Entry<Long, String> order : opened.entrySet()) {
                try (var statement = db.prepareStatement("SELECT account_id FROM exchange_order WHERE id = ?")) {
                    statement.setLong(1, order.getKey());
                    try (ResultSet row = statement.executeQuery()) {
                        assertThat(row.next())
                                .as("acknowledged order " + order.getKey())
                                .isTrue();
                        assertThat(row.getString(1)).isEqualTo(order.getValue());
                    }
                }
            }
            for (long id : canceled) {
                try (var statement = db.prepareStatement("SELECT canceled_shares FROM exchange_order WHERE id = ?")) {
                    statement.setLong(1, id);
                    try (ResultSet row = statement.executeQuery()) {
                        assertThat(row.next()).isTrue();
                        assertThat(row.getBigDecimal(1))
                                .as("acknowledged cancel of " + id)
                                .isNotNull();
                    }
                }
            }
            for (Map.Entry<Long, Integer> seen : executionsSeen.entrySet()) {
                try (var statement = db.prepareStatement(
                        "SELECT count(*) FROM execution WHERE buy_order_id = ? OR sell_order_id = ?")) {
                    statement.setLong(1, seen.getKey());
                    statement.setLong(2, seen.getKey());
                    try (ResultSet row = statement.executeQuery()) {
                        row.next();
                        assertThat(row.getInt(1))
                                .as("executions of " + seen.getKey())
                                .isGreaterThanOrEqualTo(seen.getValue());
                    }
                }
            }
            verifyConservation(db);
        }

        void verifyConservation(Connection db) throws SQLException {
            String in =
                    String.join(",", accounts.stream().map(a -> "'" + a + "'").toList());
            try (Statement statement = db.createStatement();
                    ResultSet totals = statement.executeQuery("SELECT "
                            + "(SELECT sum(balance) FROM account WHERE id IN (" + in + ")) + "
                            + "(SELECT coalesce(sum(open_shares * limit_price), 0) FROM exchange_order "
                            + "  WHERE amount > 0 AND account_id IN (" + in + ")), "
                            + "(SELECT sum(shares) FROM position WHERE symbol = '" + symbol + "') + "
                            + "(SELECT coalesce(sum(open_shares), 0) FROM exchange_order WHERE amount < 0 AND symbol = '"
                            + symbol + "')")) {
                totals.next();
                BigDecimal clients = BigDecimal.valueOf(accounts.size());
                assertThat(totals.getBigDecimal(1))
                        .as("cash of " + symbol)
                        .isEqualByComparingTo(START_CASH.multiply(clients));
                assertThat(totals.getBigDecimal(2))
                        .as("shares of " + symbol)
                        .isEqualByComparingTo(START_SHARES.multiply(clients));
            }
        }

        void checkQueriesAfterRestart() {
            for (Map.Entry<Long, Integer> seen : executionsSeen.entrySet()) {
                String reply = xml.send("<transactions id=\"" + opened.get(seen.getKey()) + "\"><query id=\""
                        + seen.getKey() + "\"/></transactions>");
                assertThat(EXECUTED.matcher(reply).results().count()).isGreaterThanOrEqualTo(seen.getValue());
            }
        }
    }
}
