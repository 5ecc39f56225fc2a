package dev.agora.perf.xml;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

class ExchangeRepliesAndRequestsTest {

    @Test
    void countsTopLevelOutcomesNotTheChildrenOfStatusAndCanceled() {
        String reply =
                """
                <results>
                  <opened sym="SPY" amount="100" limit="145.67" id="7"/>
                  <status id="3"><open shares="100"/><executed shares="200" price="125" time="1519348326"/></status>
                  <canceled id="4"><canceled shares="50" time="1519348326"/></canceled>
                  <error id="99">unknown order</error>
                </results>""";

        ExchangeReplies.Outcomes outcomes = ExchangeReplies.outcomes(reply);

        assertThat(outcomes.successes()).isEqualTo(3);
        assertThat(outcomes.errors()).isEqualTo(1);
        assertThat(ExchangeReplies.isResults(reply)).isTrue();
        assertThat(ExchangeReplies.openedOrderIds(reply)).containsExactly(7L);
    }

    @Test
    void emptyResultsAndGarbage() {
        assertThat(ExchangeReplies.isResults("<results/>")).isTrue();
        assertThat(ExchangeReplies.isResults("HTTP/1.1 400")).isFalse();
        assertThat(ExchangeReplies.outcomes("<results/>")).isEqualTo(new ExchangeReplies.Outcomes(0, 0));
        assertThat(ExchangeReplies.openedOrderIds("<opened id=\"99999999999999999999999\"/>"))
                .isEmpty();
    }

    @Test
    void createsHoldOneAccountAndOnePositionOfThatAccount() throws Exception {
        ExchangeRequests requests = new ExchangeRequests(42, 100, ExchangeRequests.sharedOrderIds());
        for (int i = 0; i < 50; i++) {
            Element create = parse(requests.create()).getDocumentElement();
            assertThat(create.getTagName()).isEqualTo("create");
            Element account = (Element) create.getElementsByTagName("account").item(0);
            Element symbol = (Element) create.getElementsByTagName("symbol").item(0);
            Element position = (Element) symbol.getElementsByTagName("account").item(0);
            assertThat(Integer.parseInt(account.getAttribute("id"))).isBetween(1, 100);
            assertThat(new java.math.BigDecimal(account.getAttribute("balance")))
                    .isPositive();
            assertThat(position.getAttribute("id")).isEqualTo(account.getAttribute("id"));
            assertThat(new java.math.BigDecimal(position.getTextContent())).isPositive();
            assertThat(symbol.getAttribute("sym")).matches("[A-Za-z0-9]+");
        }
    }

    @Test
    void transactionsHoldAnOrderAQueryAndACancelAndReuseOpenedIds() throws Exception {
        List<Long> opened = ExchangeRequests.sharedOrderIds();
        ExchangeRequests requests = new ExchangeRequests(7, 100, opened);
        requests.learnFrom("<results><opened sym=\"X\" amount=\"1\" limit=\"2\" id=\"12345\"/></results>");
        assertThat(opened).containsExactly(12345L);
        int queriesOfKnownOrder = 0;
        for (int i = 0; i < 200; i++) {
            Element transactions = parse(requests.transactions()).getDocumentElement();
            assertThat(transactions.getTagName()).isEqualTo("transactions");
            Element order = (Element) transactions.getElementsByTagName("order").item(0);
            Element query = (Element) transactions.getElementsByTagName("query").item(0);
            Element cancel =
                    (Element) transactions.getElementsByTagName("cancel").item(0);
            assertThat(new java.math.BigDecimal(order.getAttribute("amount")).signum())
                    .isNotZero();
            assertThat(new java.math.BigDecimal(order.getAttribute("limit"))).isPositive();
            assertThat(Long.parseLong(cancel.getAttribute("id"))).isPositive();
            if (query.getAttribute("id").equals("12345")) queriesOfKnownOrder++;
        }
        assertThat(queriesOfKnownOrder).isGreaterThan(50);
    }

    @Test
    void theSameSeedGivesTheSameRequests() {
        ExchangeRequests one = new ExchangeRequests(3, 10, ExchangeRequests.sharedOrderIds());
        ExchangeRequests two = new ExchangeRequests(3, 10, ExchangeRequests.sharedOrderIds());
        for (int i = 0; i < 20; i++) assertThat(one.next()).isEqualTo(two.next());
    }

    private static Document parse(String xml) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }
}
