package dev.agora.exchange.xml;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.exchange.support.InTestExchange;
import dev.agora.exchange.support.XmlClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Order ids past 2^32 (the engine once kept orders in an array indexed by an int id): an exchange whose database
 * already holds orders 2^33 (closed) and 2^33 + 1 (open) goes on from there, answers both, and trades against the
 * open one. Ids that do not fit 64 bits name no order, and do not disturb the rest of their request.
 */
class SixtyFourBitIdsTest {

    private static final long CLOSED = 1L << 33;
    private static final long OPEN = CLOSED + 1;
    private static InTestExchange exchange;
    private static XmlClient xml;

    @BeforeAll
    static void start() throws Exception {
        exchange = new InTestExchange("exchange_big_ids", InTestExchange.Limits.defaults(), sql -> {
            sql.execute("INSERT INTO account (id, balance) VALUES ('8001', 1000)");
            sql.execute("INSERT INTO position (account_id, symbol, shares) VALUES ('8001', 'BIG', 7)");
            sql.execute("INSERT INTO exchange_order (id, account_id, symbol, amount, limit_price, open_shares,"
                    + " canceled_shares, canceled_at) VALUES (" + CLOSED + ", '8001', 'BIG', 5, 2, 0, 5, 1600000000)");
            sql.execute("INSERT INTO exchange_order (id, account_id, symbol, amount, limit_price, open_shares)"
                    + " VALUES (" + OPEN + ", '8001', 'BIG', -3, 9, 3)");
            sql.execute("INSERT INTO execution (id, buy_order_id, sell_order_id, symbol, shares, price, executed_at)"
                    + " VALUES (" + (1L << 40) + ", " + CLOSED + ", " + CLOSED + ", 'BIG', 1, 1, 1500000000)");
        });
        xml = exchange.client();
    }

    @AfterAll
    static void stop() {
        exchange.close();
    }

    @Test
    void ordersAndExecutionsGoOnPastTwoToTheThirtyTwo() {
        assertThat(xml.send("<transactions id=\"8001\"><query id=\"" + CLOSED + "\"/><query id=\"" + OPEN
                        + "\"/></transactions>"))
                .isEqualTo("<results><status id=\"" + CLOSED + "\"><canceled shares=\"5\" time=\"1600000000\"/>"
                        + "<executed shares=\"1\" price=\"1\" time=\"1500000000\"/></status>"
                        + "<status id=\"" + OPEN + "\"><open shares=\"-3\"/></status></results>");

        String opened =
                xml.send("<transactions id=\"8001\"><order sym=\"BIG\" amount=\"1\" limit=\"10\"/></transactions>");
        assertThat(opened)
                .isEqualTo(
                        "<results><opened sym=\"BIG\" amount=\"1\" limit=\"10\" id=\"" + (OPEN + 1) + "\"/></results>");
        assertThat(xml.send("<transactions id=\"8001\"><query id=\"" + (OPEN + 1) + "\"/><cancel id=\"" + OPEN
                        + "\"/></transactions>"))
                .isEqualTo("<results><status id=\"" + (OPEN + 1)
                        + "\"><executed shares=\"1\" price=\"9\" time=\"1700000000\"/></status>"
                        + "<canceled id=\"" + OPEN + "\"><canceled shares=\"-2\" time=\"1700000000\"/>"
                        + "<executed shares=\"-1\" price=\"9\" time=\"1700000000\"/></canceled></results>");
    }

    @Test
    void idsBeyondSixtyFourBitsNameNoOrderAndHarmNothingElse() {
        assertThat(xml.send("<transactions id=\"8001\"><query id=\"9223372036854775808\"/>"
                        + "<cancel id=\"99999999999999999999\"/><query id=\"" + CLOSED + "\"/></transactions>"))
                .isEqualTo("<results><error id=\"9223372036854775808\">order does not exist</error>"
                        + "<error id=\"99999999999999999999\">order does not exist</error>"
                        + "<status id=\"" + CLOSED + "\"><canceled shares=\"5\" time=\"1600000000\"/>"
                        + "<executed shares=\"1\" price=\"1\" time=\"1500000000\"/></status></results>");
    }
}
