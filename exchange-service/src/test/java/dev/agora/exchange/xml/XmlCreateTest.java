package dev.agora.exchange.xml;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.exchange.support.ExchangeServiceTest;
import dev.agora.exchange.support.Ids;
import org.junit.jupiter.api.Test;

/** {@code <create>} as EXCHANGE-PROTOCOL.md defines it, through the real TCP protocol. */
class XmlCreateTest extends ExchangeServiceTest {

    @Test
    void createsAnAccount() {
        String id = Ids.account();
        assertThat(createAccount(id, "1000")).isEqualTo("<results><created id=\"" + id + "\"/></results>");
    }

    @Test
    void refusesADuplicateAccountAndKeepsTheFirst() {
        String id = Ids.account();
        createAccount(id, "1000");
        assertThat(createAccount(id, "5"))
                .isEqualTo("<results><error id=\"" + id + "\">account already exists</error></results>");
        // The first balance is intact: 1000 buys 10 @ 100, which 5 could not.
        String symbol = Ids.symbol();
        assertThat(order(id, symbol, "10", "100")).contains("<opened ");
    }

    @Test
    void refusesBadBalances() {
        for (String balance : new String[] {"-1", "abc", "", "1e5", "1.2.3", "NaN"}) {
            String id = Ids.account();
            assertThat(createAccount(id, balance))
                    .as(balance)
                    .isEqualTo("<results><error id=\"" + id
                            + "\">balance must be a non-negative decimal</error></results>");
            // Nothing was created: the id is still free.
            assertThat(createAccount(id, "1")).isEqualTo("<results><created id=\"" + id + "\"/></results>");
        }
    }

    @Test
    void accountIdsAreStringsOfDigitsOfAnyLength() {
        String base = Ids.account();
        String zeroPadded = "0" + base;
        String huge = base + "123456789012345678901234567890";
        String reply = xml.send("<create><account id=\"" + base + "\" balance=\"1\"/><account id=\"" + zeroPadded
                + "\" balance=\"2\"/><account id=\"" + huge + "\" balance=\"3\"/></create>");
        assertThat(reply)
                .isEqualTo("<results><created id=\"" + base + "\"/><created id=\"" + zeroPadded + "\"/><created id=\""
                        + huge + "\"/></results>");
    }

    @Test
    void refusesAccountIdsThatAreNotDigits() {
        assertThat(createAccount("12a", "1"))
                .isEqualTo("<results><error id=\"12a\">account id must be 1 to 100 decimal digits</error></results>");
        assertThat(xml.send("<create><account balance=\"1\"/></create>"))
                .isEqualTo("<results><error>account id must be 1 to 100 decimal digits</error></results>");
    }

    @Test
    void createsASymbolWithPositions() {
        String a = Ids.account();
        String b = Ids.account();
        createAccount(a, "0");
        createAccount(b, "0");
        String symbol = Ids.symbol();
        String reply = xml.send("<create><symbol sym=\"" + symbol + "\"><account id=\"" + a + "\">100</account>"
                + "<account id=\"" + b + "\">0.5</account></symbol></create>");
        assertThat(reply)
                .isEqualTo("<results><created sym=\"" + symbol + "\" id=\"" + a + "\"/><created sym=\"" + symbol
                        + "\" id=\"" + b + "\"/></results>");
        // The shares are there: b can sell exactly 0.5.
        assertThat(order(b, symbol, "-0.5", "10")).contains("<opened ");
    }

    @Test
    void refusesSharesForAnUnknownAccount() {
        String symbol = Ids.symbol();
        String unknown = Ids.account();
        assertThat(addShares(symbol, unknown, "10"))
                .isEqualTo("<results><error sym=\"" + symbol + "\" id=\"" + unknown
                        + "\">account does not exist</error></results>");
    }

    @Test
    void refusesBadShareCounts() {
        String a = Ids.account();
        createAccount(a, "0");
        String symbol = Ids.symbol();
        for (String shares : new String[] {"0", "-5", "x", "", "1e3"}) {
            assertThat(addShares(symbol, a, shares))
                    .as(shares)
                    .isEqualTo("<results><error sym=\"" + symbol + "\" id=\"" + a
                            + "\">shares must be a positive decimal</error></results>");
        }
        assertThat(order(a, symbol, "-1", "1")).contains("insufficient shares");
    }

    @Test
    void refusesSymbolsThatAreNotAlphanumeric() {
        String a = Ids.account();
        createAccount(a, "0");
        assertThat(addShares("BAD-SYM", a, "10"))
                .isEqualTo("<results><error sym=\"BAD-SYM\" id=\"" + a
                        + "\">symbol must be 1 to 32 ASCII letters or digits</error></results>");
    }

    @Test
    void creatingAnExistingSymbolAddsShares() {
        String a = Ids.account();
        createAccount(a, "0");
        String symbol = Ids.symbol();
        addShares(symbol, a, "10");
        assertThat(addShares(symbol, a, "5")).contains("<created ");
        assertThat(order(a, symbol, "-16", "1")).contains("insufficient shares");
        assertThat(order(a, symbol, "-15", "1")).contains("<opened ");
    }

    @Test
    void zeroChildrenYieldEmptyResults() {
        assertThat(xml.send("<create></create>")).isEqualTo("<results/>");
        assertThat(xml.send("<create/>")).isEqualTo("<results/>");
    }

    @Test
    void childrenAreIndependentAndAnsweredInOrder() {
        String a = Ids.account();
        String symbol = Ids.symbol();
        String reply = xml.send("<create><account id=\"" + a + "\" balance=\"10\"/><account id=\"" + a
                + "\" balance=\"10\"/><symbol sym=\"" + symbol + "\"><account id=\"" + a + "\">3</account>"
                + "</symbol><bogus/></create>");
        assertThat(reply)
                .isEqualTo("<results><created id=\"" + a + "\"/><error id=\"" + a + "\">account already exists</error>"
                        + "<created sym=\"" + symbol + "\" id=\"" + a + "\"/>"
                        + "<error>unsupported element &lt;bogus&gt;</error></results>");
    }
}
