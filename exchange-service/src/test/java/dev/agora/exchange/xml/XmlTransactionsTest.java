package dev.agora.exchange.xml;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.exchange.support.ExchangeServiceTest;
import dev.agora.exchange.support.Ids;
import org.junit.jupiter.api.Test;

/** {@code <transactions>} and the matching rules of EXCHANGE-PROTOCOL.md, through the real TCP protocol. */
class XmlTransactionsTest extends ExchangeServiceTest {

    private String funded(String balance) {
        String id = Ids.account();
        createAccount(id, balance);
        return id;
    }

    private String holding(String symbol, String shares) {
        String id = funded("0");
        addShares(symbol, id, shares);
        return id;
    }

    @Test
    void unknownAccountGetsAnErrorForEveryChild() {
        String unknown = Ids.account();
        String reply = xml.send("<transactions id=\"" + unknown + "\"><order sym=\"X\" amount=\"1\" limit=\"2\"/>"
                + "<query id=\"1\"/><cancel id=\"1\"/></transactions>");
        assertThat(reply)
                .isEqualTo("<results><error sym=\"X\" amount=\"1\" limit=\"2\">account does not exist</error>"
                        + "<error id=\"1\">account does not exist</error>"
                        + "<error id=\"1\">account does not exist</error></results>");
    }

    @Test
    void opensAnOrderEchoingItsAttributesExactly() {
        String buyer = funded("1000");
        String symbol = Ids.symbol();
        String reply = order(buyer, symbol, "010.50", "2.000");
        long id = openedId(reply);
        assertThat(reply)
                .isEqualTo("<results><opened sym=\"" + symbol + "\" amount=\"010.50\" limit=\"2.000\" id=\"" + id
                        + "\"/></results>");
        assertThat(query(buyer, id))
                .isEqualTo("<results><status id=\"" + id + "\"><open shares=\"10.50\"/></status></results>");
    }

    @Test
    void buyReservesCashAndIsRefusedWithoutEnough() {
        String buyer = funded("100");
        String symbol = Ids.symbol();
        assertThat(order(buyer, symbol, "11", "10"))
                .isEqualTo("<results><error sym=\"" + symbol
                        + "\" amount=\"11\" limit=\"10\">insufficient funds</error></results>");
        assertThat(order(buyer, symbol, "10", "10")).contains("<opened ");
        // All 100 is reserved now.
        assertThat(order(buyer, symbol, "0.01", "1")).contains("insufficient funds");
    }

    @Test
    void sellNeedsShares() {
        String symbol = Ids.symbol();
        String seller = holding(symbol, "5");
        assertThat(order(seller, symbol, "-6", "1"))
                .isEqualTo("<results><error sym=\"" + symbol
                        + "\" amount=\"-6\" limit=\"1\">insufficient shares</error></results>");
        String noPosition = funded("1000");
        assertThat(order(noPosition, symbol, "-1", "1")).contains("insufficient shares");
        assertThat(order(seller, symbol, "-5", "1")).contains("<opened ");
        // The shares left the position when the sell opened.
        assertThat(order(seller, symbol, "-1", "1")).contains("insufficient shares");
    }

    @Test
    void amountZeroAndBadNumbersAreRefused() {
        String account = funded("1000");
        String symbol = Ids.symbol();
        assertThat(order(account, symbol, "0", "10"))
                .isEqualTo("<results><error sym=\"" + symbol
                        + "\" amount=\"0\" limit=\"10\">amount must be a non-zero decimal</error></results>");
        assertThat(order(account, symbol, "-0.00", "10")).contains("amount must be a non-zero decimal");
        assertThat(order(account, symbol, "ten", "10")).contains("amount must be a non-zero decimal");
        assertThat(order(account, symbol, "1", "0")).contains("limit must be a positive decimal");
        assertThat(order(account, symbol, "1", "-3")).contains("limit must be a positive decimal");
        assertThat(order(account, symbol, "1", "1e2")).contains("limit must be a positive decimal");
        assertThat(order(account, "no-good", "1", "1")).contains("symbol must be 1 to 32 ASCII letters or digits");
    }

    @Test
    void theWorkedExample() {
        String symbol = Ids.symbol();
        String buyer = funded("1000000");
        String seller = holding(symbol, "2000");
        long o1 = openedId(order(buyer, symbol, "300", "125"));
        long o2 = openedId(order(seller, symbol, "-100", "130"));
        long o3 = openedId(order(buyer, symbol, "200", "127"));
        long o4 = openedId(order(seller, symbol, "-500", "128"));
        long o5 = openedId(order(seller, symbol, "-200", "140"));
        long o6 = openedId(order(buyer, symbol, "400", "125"));
        for (long id : new long[] {o1, o3, o6}) assertThat(query(buyer, id)).doesNotContain("executed");
        for (long id : new long[] {o2, o4, o5}) assertThat(query(seller, id)).doesNotContain("executed");

        long o7 = openedId(order(seller, symbol, "-400", "124"));

        assertThat(timeless(query(buyer, o1)))
                .isEqualTo("<results><status id=\"" + o1 + "\"><open shares=\"100\"/>"
                        + "<executed shares=\"200\" price=\"125\" time=\"T\"/></status></results>");
        assertThat(timeless(query(seller, o7)))
                .isEqualTo("<results><status id=\"" + o7 + "\"><executed shares=\"-200\" price=\"127\" time=\"T\"/>"
                        + "<executed shares=\"-200\" price=\"125\" time=\"T\"/></status></results>");
        assertThat(timeless(query(buyer, o3)))
                .isEqualTo("<results><status id=\"" + o3 + "\">"
                        + "<executed shares=\"200\" price=\"127\" time=\"T\"/></status></results>");
        // Order 6 has the same price as order 1 but came later: untouched.
        assertThat(query(buyer, o6))
                .isEqualTo("<results><status id=\"" + o6 + "\"><open shares=\"400\"/></status></results>");
        assertThat(query(seller, o4)).contains("<open shares=\"-500\"/>");
    }

    @Test
    void buyerIsRefundedWhenTheRestingSellIsCheaper() {
        String symbol = Ids.symbol();
        String seller = holding(symbol, "10");
        String buyer = funded("1000");
        openedId(order(seller, symbol, "-10", "80"));
        long buy = openedId(order(buyer, symbol, "10", "100"));
        // Executed at the resting sell's price 80: 1000 - 10*100 reserved + 10*(100-80) back = 200 left.
        assertThat(timeless(query(buyer, buy))).contains("<executed shares=\"10\" price=\"80\" time=\"T\"/>");
        assertThat(order(buyer, symbol, "2.5", "80")).contains("<opened ");
        assertThat(order(buyer, symbol, "0.01", "1")).contains("insufficient funds");
        // The buyer holds the 10 shares now and can sell them.
        assertThat(order(buyer, symbol, "-10", "500")).contains("<opened ");
    }

    @Test
    void executionIsAtTheRestingOrdersPrice() {
        String symbol = Ids.symbol();
        String buyer = funded("10000");
        String seller = holding(symbol, "10");
        long buy = openedId(order(buyer, symbol, "10", "150"));
        long sell = openedId(order(seller, symbol, "-10", "90"));
        assertThat(timeless(query(seller, sell))).contains("<executed shares=\"-10\" price=\"150\" time=\"T\"/>");
        assertThat(timeless(query(buyer, buy))).contains("<executed shares=\"10\" price=\"150\" time=\"T\"/>");
    }

    @Test
    void equalLimitsMatch() {
        String symbol = Ids.symbol();
        String buyer = funded("1000");
        String seller = holding(symbol, "10");
        long sell = openedId(order(seller, symbol, "-10", "10"));
        long buy = openedId(order(buyer, symbol, "10", "10.00"));
        assertThat(timeless(query(buyer, buy)))
                .isEqualTo("<results><status id=\"" + buy + "\"><executed shares=\"10\" price=\"10\" time=\"T\"/>"
                        + "</status></results>");
        assertThat(query(seller, sell)).contains("<executed shares=\"-10\" price=\"10\"");
    }

    @Test
    void timePriorityAtEqualPrice() {
        String symbol = Ids.symbol();
        String first = holding(symbol, "10");
        String second = holding(symbol, "10");
        String buyer = funded("1000");
        long early = openedId(order(first, symbol, "-10", "5"));
        long late = openedId(order(second, symbol, "-10", "5"));
        order(buyer, symbol, "15", "5");
        assertThat(query(first, early))
                .contains("<executed shares=\"-10\" price=\"5\"")
                .doesNotContain("<open");
        assertThat(query(second, late))
                .contains("<open shares=\"-5\"/>")
                .contains("<executed shares=\"-5\" price=\"5\"");
    }

    @Test
    void partialFillsThenCancel() {
        String symbol = Ids.symbol();
        String buyer = funded("1000");
        String seller = holding(symbol, "100");
        long buy = openedId(order(buyer, symbol, "100", "10"));
        order(seller, symbol, "-30", "10");
        order(seller, symbol, "-20", "9");
        String canceled = timeless(cancel(buyer, buy));
        assertThat(canceled)
                .isEqualTo("<results><canceled id=\"" + buy + "\"><canceled shares=\"50\" time=\"T\"/>"
                        + "<executed shares=\"30\" price=\"10\" time=\"T\"/>"
                        + "<executed shares=\"20\" price=\"10\" time=\"T\"/></canceled></results>");
        assertThat(timeless(query(buyer, buy)))
                .isEqualTo("<results><status id=\"" + buy + "\"><canceled shares=\"50\" time=\"T\"/>"
                        + "<executed shares=\"30\" price=\"10\" time=\"T\"/>"
                        + "<executed shares=\"20\" price=\"10\" time=\"T\"/></status></results>");
        // 1000 - 500 paid; the 50 x 10 reserved for the canceled part is back: 500 free.
        assertThat(order(buyer, symbol, "50", "10")).contains("<opened ");
        assertThat(order(buyer, symbol, "0.01", "1")).contains("insufficient funds");
    }

    @Test
    void cancelOfASellReturnsTheSharesAndCarriesTheSign() {
        String symbol = Ids.symbol();
        String seller = holding(symbol, "10");
        long sell = openedId(order(seller, symbol, "-10", "10"));
        assertThat(timeless(cancel(seller, sell)))
                .isEqualTo("<results><canceled id=\"" + sell + "\"><canceled shares=\"-10\" time=\"T\"/></canceled>"
                        + "</results>");
        assertThat(order(seller, symbol, "-10", "10")).contains("<opened ");
    }

    @Test
    void canceledOrderNeverMatchesAgain() {
        String symbol = Ids.symbol();
        String seller = holding(symbol, "10");
        String buyer = funded("1000");
        long sell = openedId(order(seller, symbol, "-10", "10"));
        cancel(seller, sell);
        long buy = openedId(order(buyer, symbol, "10", "10"));
        assertThat(query(buyer, buy))
                .isEqualTo("<results><status id=\"" + buy + "\"><open shares=\"10\"/></status></results>");
        assertThat(query(seller, sell)).doesNotContain("executed");
    }

    @Test
    void queryAndCancelOfAnotherAccountsOrderAreErrors() {
        String owner = funded("100");
        String other = funded("100");
        long id = openedId(order(owner, Ids.symbol(), "1", "1"));
        assertThat(query(other, id))
                .isEqualTo("<results><error id=\"" + id + "\">order belongs to another account</error></results>");
        assertThat(cancel(other, id))
                .isEqualTo("<results><error id=\"" + id + "\">order belongs to another account</error></results>");
        assertThat(query(owner, id)).contains("<open shares=\"1\"/>");
    }

    @Test
    void unknownOrderIdsAreErrors() {
        String owner = funded("100");
        assertThat(query(owner, Long.MAX_VALUE))
                .isEqualTo("<results><error id=\"" + Long.MAX_VALUE + "\">order does not exist</error></results>");
        assertThat(xml.send("<transactions id=\"" + owner + "\"><cancel id=\"abc\"/></transactions>"))
                .isEqualTo("<results><error id=\"abc\">order does not exist</error></results>");
    }

    @Test
    void cancelOfAFullyExecutedOrAlreadyCanceledOrderIsAnError() {
        String symbol = Ids.symbol();
        String buyer = funded("1000");
        String seller = holding(symbol, "10");
        long buy = openedId(order(buyer, symbol, "10", "10"));
        order(seller, symbol, "-10", "10");
        assertThat(cancel(buyer, buy))
                .isEqualTo("<results><error id=\"" + buy + "\">order has no open shares</error></results>");
        long second = openedId(order(buyer, symbol, "1", "1"));
        assertThat(cancel(buyer, second)).contains("<canceled id=");
        assertThat(cancel(buyer, second))
                .isEqualTo("<results><error id=\"" + second + "\">order has no open shares</error></results>");
    }

    @Test
    void repliesComeInRequestOrder() {
        String symbol = Ids.symbol();
        String account = funded("1000");
        addShares(symbol, account, "10");
        String reply = xml.send("<transactions id=\"" + account + "\">"
                + "<order sym=\"" + symbol + "\" amount=\"-5\" limit=\"100\"/>"
                + "<query id=\"" + Long.MAX_VALUE + "\"/>"
                + "<order sym=\"" + symbol + "\" amount=\"0\" limit=\"1\"/>"
                + "<order sym=\"" + symbol + "\" amount=\"1\" limit=\"1\"/>"
                + "<frobnicate/>"
                + "</transactions>");
        assertThat(reply)
                .matches("<results><opened sym=\"" + symbol + "\" amount=\"-5\" limit=\"100\" id=\"\\d+\"/>"
                        + "<error id=\"" + Long.MAX_VALUE + "\">order does not exist</error>"
                        + "<error sym=\"" + symbol
                        + "\" amount=\"0\" limit=\"1\">amount must be a non-zero decimal</error>"
                        + "<opened sym=\"" + symbol + "\" amount=\"1\" limit=\"1\" id=\"\\d+\"/>"
                        + "<error>unsupported element &lt;frobnicate&gt;</error></results>");
    }

    @Test
    void childrenOfOneRequestSeeEachOther() {
        String symbol = Ids.symbol();
        String account = funded("100");
        addShares(symbol, account, "10");
        String reply = xml.send("<transactions id=\"" + account + "\">"
                + "<order sym=\"" + symbol + "\" amount=\"-10\" limit=\"5\"/>"
                + "<order sym=\"" + symbol + "\" amount=\"10\" limit=\"5\"/>"
                + "</transactions>");
        long sell = openedId(reply);
        // A self-trade is an ordinary trade: the account bought its own shares back.
        assertThat(timeless(query(account, sell))).contains("<executed shares=\"-10\" price=\"5\" time=\"T\"/>");
    }
}
