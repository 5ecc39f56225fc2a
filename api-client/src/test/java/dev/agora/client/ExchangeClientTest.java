package dev.agora.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.client.api.ExchangeApi;
import dev.agora.client.model.AddShares;
import dev.agora.client.model.CreateAccount;
import dev.agora.client.model.ExchangeOrderView;
import dev.agora.client.model.PlaceOrder;
import java.math.BigDecimal;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

/**
 * The generated client's exchange: an admin opens a trader's accounts and grants shares, the trader's sell and buy
 * match, the trader reads and cancels orders, against a real exchange behind a real frontend.
 */
@EnabledIfSystemProperty(named = "agora.cluster-tests", matches = "true")
class ExchangeClientTest {

    private static Clients clients;

    @BeforeAll
    static void start() {
        clients = new Clients(ApiCluster.get());
    }

    /**
     * Opens a trader's account with 1000 in cash, answered 201 also when the exchange is cold: the frontend waits for
     * the exchange's answer to a write it cannot repeat (common's {@code not-idempotent-timeout}).
     */
    private static void open(ExchangeApi admin, String id) {
        ResponseEntity<?> opened = admin.createAccount(
                new CreateAccount().id(id).balance(new BigDecimal("1000")).owner("trader"));
        assertThat(opened.getStatusCode()).isEqualTo(HttpStatus.CREATED);
    }

    @Test
    void aTradersOrdersMatchAndTheRestCanBeCanceled() {
        ExchangeApi admin = clients.api(ExchangeApi.class, "admin");
        ExchangeApi trader = clients.api(ExchangeApi.class, "trader");
        String seller = Long.toString(System.nanoTime() % 1_000_000_000L);
        String buyer = seller + "1";
        open(admin, seller);
        open(admin, buyer);
        admin.addShares("AGORA", new AddShares().accountId(seller).shares(new BigDecimal("10")));

        ResponseEntity<ExchangeOrderView> sell = trader.placeOrder(
                seller,
                new PlaceOrder().symbol("AGORA").amount(new BigDecimal("-10")).limit(new BigDecimal("5")),
                null);
        assertThat(sell.getStatusCode()).isEqualTo(HttpStatus.CREATED);
        ExchangeOrderView buy = trader.placeOrder(
                        buyer,
                        new PlaceOrder()
                                .symbol("AGORA")
                                .amount(new BigDecimal("4"))
                                .limit(new BigDecimal("6")),
                        "buy-" + buyer)
                .getBody();
        assertThat(buy.getExecutions()).hasSize(1);
        assertThat(buy.getExecutions().getFirst().getShares()).isEqualByComparingTo("4");
        assertThat(buy.getExecutions().getFirst().getPrice()).isEqualByComparingTo("5");

        ExchangeOrderView open =
                trader.getExchangeOrder(seller, sell.getBody().getId()).getBody();
        assertThat(open.getOpen()).isEqualByComparingTo("-6");
        ExchangeOrderView canceled = trader.cancelOrder(seller, open.getId()).getBody();
        assertThat(canceled.getCanceled().getShares()).isEqualByComparingTo("-6");
        assertThat(trader.getAccount(buyer).getBody().getBalance()).isEqualByComparingTo("980");
    }
}
