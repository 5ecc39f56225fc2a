package dev.agora.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agora.client.api.BooksApi;
import dev.agora.client.api.OrdersApi;
import dev.agora.client.model.BookSummary;
import dev.agora.client.model.BookView;
import dev.agora.client.model.OrderRequest;
import dev.agora.client.model.OrderView;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.HttpClientErrorException;

/** The generated client's bookstore: search, lookup, buy and the buyer's orders, against real services. */
@EnabledIfSystemProperty(named = "agora.cluster-tests", matches = "true")
class BookstoreClientTest {

    private static Clients clients;

    @BeforeAll
    static void start() {
        clients = new Clients(ApiCluster.get());
    }

    @Test
    void searchAndLookupAnswerTheSeedTitlesWithoutAToken() {
        BooksApi books = clients.anonymous(BooksApi.class);
        List<BookSummary> found = books.searchBooks("graduate school").getBody();
        assertThat(found).extracting(BookSummary::getId).contains(3L, 4L);
        BookView book = books.lookup(3L).getBody();
        assertThat(book.getTitle()).isEqualTo("Xen and the Art of Surviving Graduate School.");
        assertThat(book.getTopic()).isEqualTo("graduate school");
        assertThat(book.getPrice()).isPositive();
    }

    @Test
    void aCustomerBuysOnceUnderOneKeyAndReadsTheOrder() {
        OrdersApi orders = clients.api(OrdersApi.class, "customer");
        long stockBefore =
                clients.anonymous(BooksApi.class).lookup(1L).getBody().getStock();
        String key = UUID.randomUUID().toString();
        ResponseEntity<OrderView> bought =
                orders.buy(new OrderRequest().bookId(1L).quantity(2), key);
        ResponseEntity<OrderView> again =
                orders.buy(new OrderRequest().bookId(1L).quantity(2), key);

        assertThat(bought.getStatusCode()).isEqualTo(HttpStatus.CREATED);
        OrderView order = bought.getBody();
        assertThat(order.getBookId()).isEqualTo(1L);
        assertThat(order.getQuantity()).isEqualTo(2);
        assertThat(again.getBody().getOrderId()).isEqualTo(order.getOrderId());
        assertThat(orders.getOrder(order.getOrderId()).getBody().getOrderId()).isEqualTo(order.getOrderId());
        assertThat(orders.listOrders(0, 100).getBody().getContent())
                .extracting(OrderView::getOrderId)
                .contains(order.getOrderId());
        assertThat(clients.anonymous(BooksApi.class).lookup(1L).getBody().getStock())
                .isEqualTo(stockBefore - 2);
    }

    @Test
    void aBuyWithoutATokenIsRefusedAsAProblem() {
        OrdersApi anonymous = clients.anonymous(OrdersApi.class);
        assertThatThrownBy(() -> anonymous.buy(new OrderRequest().bookId(1L).quantity(1), null))
                .isInstanceOfSatisfying(HttpClientErrorException.class, refused -> {
                    assertThat(refused.getStatusCode()).isEqualTo(HttpStatus.UNAUTHORIZED);
                    assertThat(refused.getResponseHeaders().getContentType().toString())
                            .startsWith("application/problem+json");
                });
    }
}
