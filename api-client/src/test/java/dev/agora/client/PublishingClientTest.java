package dev.agora.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.client.api.BooksApi;
import dev.agora.client.api.PublishingApi;
import dev.agora.client.model.ChangePrice;
import dev.agora.client.model.RegisterBook;
import dev.agora.client.model.Restock;
import java.math.BigDecimal;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/** The generated client's publishing calls, passed on by the frontend to a real catalog. */
@EnabledIfSystemProperty(named = "agora.cluster-tests", matches = "true")
class PublishingClientTest {

    private static Clients clients;

    @BeforeAll
    static void start() {
        clients = new Clients(ApiCluster.get());
    }

    @Test
    void aPublisherRegistersRepricesAndRestocksATitleThatLookupsThenShow() {
        PublishingApi publishing = clients.api(PublishingApi.class, "publisher");
        var registered = publishing
                .registerBook(new RegisterBook()
                        .title("Generated Clients, a Field Guide")
                        .topic("distributed systems")
                        .price(new BigDecimal("12.50"))
                        .stock(3L))
                .getBody();
        long id = registered.getId();
        publishing.changePrice(id, new ChangePrice().price(new BigDecimal("9.99")));
        publishing.restock(id, new Restock().quantity(7L));

        var book = clients.anonymous(BooksApi.class).lookup(id).getBody();
        assertThat(book.getTitle()).isEqualTo("Generated Clients, a Field Guide");
        assertThat(book.getPrice()).isEqualByComparingTo("9.99");
        assertThat(book.getStock()).isEqualTo(10L);
    }
}
