package dev.agora.exchange.xml;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.exchange.matching.MemoryLimits;
import dev.agora.exchange.support.InTestExchange;
import dev.agora.exchange.support.XmlClient;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each account's latest closed orders are answered from memory, and the answer is byte for byte the one PostgreSQL
 * gives: two whole exchanges get the same requests, one keeping four closed orders per account (and none
 * exchange-wide), the other keeping none at all, so that every query and cancel of a closed order there is read from
 * PostgreSQL. Trades, partial fills, cancels of closed orders and queries of another account's orders included.
 */
class LatestClosedOrdersXmlTest {

    private static final String[] ACCOUNTS = {"8101", "8102", "8103"};
    private static final Pattern OPENED = Pattern.compile("<opened [^>]*id=\"(\\d+)\"/>");
    private static InTestExchange keeping;
    private static InTestExchange reading;

    @BeforeAll
    static void start() throws Exception {
        keeping = new InTestExchange(
                "exchange_kept_per_account", InTestExchange.Limits.defaults(), new MemoryLimits(0, 1, 4), null);
        reading = new InTestExchange(
                "exchange_none_kept", InTestExchange.Limits.defaults(), new MemoryLimits(0, 1, 0), null);
    }

    @AfterAll
    static void stop() {
        keeping.close();
        reading.close();
    }

    @Test
    void repliesAboutKeptClosedOrdersAreThoseThatPostgresqlGives() {
        XmlClient kept = keeping.client();
        XmlClient read = reading.client();
        for (String account : ACCOUNTS) {
            String create = "<create><account id=\"" + account + "\" balance=\"1000000\"/><symbol sym=\"KEPT\">"
                    + "<account id=\"" + account + "\">10000</account></symbol></create>";
            assertThat(kept.send(create)).isEqualTo(read.send(create)).doesNotContain("<error");
        }
        List<List<Long>> orders = new ArrayList<>();
        for (String ignored : ACCOUNTS) orders.add(new ArrayList<>());
        SplittableRandom random = new SplittableRandom(29);
        int closedAnswers = 0;
        for (int step = 0; step < 300; step++) {
            int account = random.nextInt(ACCOUNTS.length);
            List<Long> own = orders.get(account);
            int amount = (1 + random.nextInt(20)) * (random.nextBoolean() ? 1 : -1);
            StringBuilder request = new StringBuilder("<transactions id=\"")
                    .append(ACCOUNTS[account])
                    .append("\"><order sym=\"KEPT\" amount=\"")
                    .append(amount)
                    .append("\" limit=\"")
                    .append(95 + random.nextInt(11))
                    .append(".5\"/>");
            if (!own.isEmpty()) {
                // One of the account's latest eight: the latest four are kept, the others read.
                request.append("<query id=\"").append(latest(own, random, 8)).append("\"/>");
                if (random.nextInt(3) == 0) {
                    request.append("<cancel id=\"")
                            .append(latest(own, random, 6))
                            .append("\"/>");
                }
            }
            List<Long> other = orders.get((account + 1) % ACCOUNTS.length);
            if (!other.isEmpty() && random.nextInt(10) == 0) {
                request.append("<query id=\"").append(latest(other, random, 2)).append("\"/>");
            }
            request.append("</transactions>");

            String reply = kept.send(request.toString());
            assertThat(reply).as("reply to %s", request).isEqualTo(read.send(request.toString()));
            Matcher opened = OPENED.matcher(reply);
            if (opened.find()) own.add(Long.parseLong(opened.group(1)));
            closedAnswers += count(reply, "<status id=\"[0-9]+\">(<canceled|<executed|</status>)");
        }
        // Not vacuous: many of the answers were about closed orders.
        assertThat(closedAnswers).isGreaterThan(50);
    }

    private static long latest(List<Long> orders, SplittableRandom random, int among) {
        return orders.get(orders.size() - 1 - random.nextInt(Math.min(among, orders.size())));
    }

    private static int count(String text, String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(text);
        int found = 0;
        while (matcher.find()) found++;
        return found;
    }
}
