package dev.agora.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Order(1)
class OrderApiTest extends OrderTestSupport {

    @Test
    void aBuyIsConfirmedAndTakesTheCopiesFromTheCatalog() {
        long bookId = newBook(5);

        Response bought = buy(newKey(), bookId, 2);

        assertThat(bought.status()).isEqualTo(201);
        assertThat(bought.json().path("status").asString()).isEqualTo("CONFIRMED");
        assertThat(bought.json().path("bookId").asLong()).isEqualTo(bookId);
        assertThat(bought.json().path("quantity").asInt()).isEqualTo(2);
        assertThat(bought.json().path("total").decimalValue()).isEqualByComparingTo("25.00");
        assertThat(bought.json().path("createdAt").asString()).isNotBlank();
        assertThat(stock(bookId)).isEqualTo(3);
        Response read = getOrder(bought.orderId());
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json()).isEqualTo(bought.json());
    }

    @Test
    void aBuyNamesItsTimeInTheDatabaseAndAtTheCatalogWithTheCatalogsOwnEntries() {
        long bookId = newBook(1);

        Response bought = buy(newKey(), bookId, 1);

        assertThat(bought.status()).isEqualTo(201);
        assertThat(bought.serverTiming())
                .containsPattern("(^|, )db;dur=\\d+\\.\\d{3}")
                .containsPattern("(^|, )catalog;dur=\\d+\\.\\d{3}")
                .containsPattern("(^|, )catalog\\.db;dur=\\d+\\.\\d{3}")
                .containsPattern("(^|, )catalog\\.total;dur=\\d+\\.\\d{3}")
                .containsPattern(", total;dur=\\d+\\.\\d{3}$");
        Response refused = buy(newKey(), bookId, 1);
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.serverTiming()).contains("catalog.db;dur=").contains("db;dur=");
    }

    @Test
    void tooFewCopiesIs409OutOfStockAndTheOrderIsRecordedRejected() {
        long bookId = newBook(1);

        Response refused = buy(newKey(), bookId, 2);

        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.isProblem()).isTrue();
        assertThat(refused.problemType()).isEqualTo("https://agora.dev/problems/out-of-stock");
        assertThat(refused.orderId()).isPositive();
        Response order = getOrder(refused.orderId());
        assertThat(order.json().path("status").asString()).isEqualTo("REJECTED");
        assertThat(order.json().path("rejection").asString()).isEqualTo("OUT_OF_STOCK");
        assertThat(order.json().has("total")).isFalse();
        assertThat(stock(bookId)).isEqualTo(1);
    }

    @Test
    void anUnknownBookIs404AndTheOrderIsRecordedRejected() {
        Response refused = buy(newKey(), 987_654, 1);

        assertThat(refused.status()).isEqualTo(404);
        assertThat(refused.problemType()).isEqualTo("https://agora.dev/problems/not-found");
        Response order = getOrder(refused.orderId());
        assertThat(order.json().path("status").asString()).isEqualTo("REJECTED");
        assertThat(order.json().path("rejection").asString()).isEqualTo("UNKNOWN_BOOK");
    }

    @Test
    void concurrentBuyersNeverOversell() throws Exception {
        int copies = 10;
        int buyers = 50;
        long bookId = newBook(copies);

        List<Response> responses = concurrently(buyers, i -> buy(newKey(), bookId, 1));

        List<Response> confirmed =
                responses.stream().filter(r -> r.status() == 201).toList();
        assertThat(confirmed).hasSize(copies);
        assertThat(responses.stream().filter(r -> r.status() == 409)).hasSize(buyers - copies);
        assertThat(confirmed.stream().map(Response::orderId).distinct()).hasSize(copies);
        assertThat(stock(bookId)).isZero();
        // Outcomes are written just after the answers.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(ordersFor(bookId, "CONFIRMED")).isEqualTo(copies);
            assertThat(ordersFor(bookId, "REJECTED")).isEqualTo(buyers - copies);
        });
    }

    @Test
    void theSameKeySentConcurrentlyAndThenAgainMakesOneOrderAndTakesStockOnce() throws Exception {
        long bookId = newBook(20);
        String key = newKey();

        List<Response> concurrent = concurrently(16, i -> buy(key, bookId, 3));
        List<Response> sequential = List.of(buy(key, bookId, 3), buy(key, bookId, 3), buy(key, bookId, 3));

        long orderId = concurrent.getFirst().orderId();
        assertThat(concurrent).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo(201);
            assertThat(r.json()).isEqualTo(concurrent.getFirst().json());
        });
        assertThat(sequential).allSatisfy(r -> assertThat(r.json())
                .isEqualTo(concurrent.getFirst().json()));
        assertThat(orderId).isPositive();
        assertThat(ordersWithKey(key)).isEqualTo(1);
        assertThat(stock(bookId)).isEqualTo(17);
    }

    @Test
    void aRepeatOfARejectedBuyIsRejectedAgainForTheSameOrder() {
        long bookId = newBook(1);
        String key = newKey();

        Response first = buy(key, bookId, 5);
        Response repeat = buy(key, bookId, 5);

        assertThat(repeat.status()).isEqualTo(409);
        assertThat(repeat.orderId()).isEqualTo(first.orderId());
    }

    @Test
    void aKeyReusedForADifferentBuyIs422AndChangesNothing() {
        long bookId = newBook(5);
        String key = newKey();
        Response first = buy(key, bookId, 1);

        Response otherQuantity = buy(key, bookId, 2);
        Response otherBook = buy(key, 1, 1);

        assertThat(otherQuantity.status()).isEqualTo(422);
        assertThat(otherBook.status()).isEqualTo(422);
        assertThat(otherQuantity.isProblem()).isTrue();
        assertThat(otherQuantity.problemType()).isEqualTo("https://agora.dev/problems/idempotency-key-reused");
        assertThat(otherQuantity.orderId()).isEqualTo(first.orderId());
        assertThat(stock(bookId)).isEqualTo(4);
        assertThat(ordersWithKey(key)).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"bookId\":1,\"quantity\":0}",
                "{\"bookId\":1,\"quantity\":-2}",
                "{\"bookId\":1,\"quantity\":1001}",
                "{\"bookId\":1,\"quantity\":99999999999999}",
                "{\"bookId\":1,\"quantity\":1.5}",
                "{\"bookId\":1,\"quantity\":\"one\"}",
                "{\"bookId\":0,\"quantity\":1}",
                "{\"bookId\":-1,\"quantity\":1}",
                "{\"quantity\":1}",
                "{\"bookId\":1}",
                "{\"bookId\":1,\"quantity\":1",
                "[]",
                ""
            })
    void badBodiesAre400ProblemsAndRecordNothing(String body) {
        long before = allOrders();
        long stockBefore = stock(1);

        Response response = buy(newKey(), body);

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.isProblem()).isTrue();
        assertThat(response.json().toString()).doesNotContain("Exception", "at dev.agora");
        assertThat(allOrders()).isEqualTo(before);
        assertThat(stock(1)).isEqualTo(stockBefore);
    }

    @Test
    void aMissingOrOverlongIdempotencyKeyIs400AndRecordsNothing() {
        long before = allOrders();

        Response missing = buy(null, 1, 1);
        Response tooLong = buy("k".repeat(101), 1, 1);

        assertThat(missing.status()).isEqualTo(400);
        assertThat(missing.isProblem()).isTrue();
        assertThat(tooLong.status()).isEqualTo(400);
        assertThat(allOrders()).isEqualTo(before);
    }

    @Test
    void ordersAreListedNewestFirstInPages() {
        long bookId = newBook(10);
        long first = buy(newKey(), bookId, 1).orderId();
        long second = buy(newKey(), bookId, 1).orderId();
        long third = buy(newKey(), bookId, 1).orderId();

        Response page = get("/orders?page=0&size=2");

        assertThat(page.status()).isEqualTo(200);
        assertThat(page.json().path("page").asInt()).isZero();
        assertThat(page.json().path("size").asInt()).isEqualTo(2);
        assertThat(page.json().path("totalElements").asLong()).isGreaterThanOrEqualTo(3);
        List<Long> ids = page.json()
                .path("content")
                .valueStream()
                .map(o -> o.path("orderId").asLong())
                .toList();
        assertThat(ids).hasSize(2).isSortedAccordingTo((a, b) -> Long.compare(b, a));
        assertThat(ids.getFirst()).isGreaterThanOrEqualTo(third);
        assertThat(first).isLessThan(second).isLessThan(third);
    }

    @Test
    void badPagesAre400AndUnknownOrdersAre404() {
        assertThat(get("/orders?page=-1").status()).isEqualTo(400);
        assertThat(get("/orders?size=0").status()).isEqualTo(400);
        assertThat(get("/orders?size=1000").status()).isEqualTo(400);
        assertThat(get("/orders/abc").status()).isEqualTo(400);
        Response unknown = getOrder(987_654_321);
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.isProblem()).isTrue();
    }
}
