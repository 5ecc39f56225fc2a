package dev.agora.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

class BookApiTest extends CatalogTestSupport {

    @Test
    void searchListsTheSeededTitlesOfATopicByIdAndTitle() {
        Response distributed = get("/books?topic=distributed%20systems");
        Response graduate = get("/books?topic=graduate%20school");

        assertThat(distributed.status()).isEqualTo(200);
        assertThat(distributed.json().valueStream().map(b -> b.path("id").asLong()))
                .startsWith(1L, 2L, 5L);
        assertThat(distributed.json().get(1).path("title").asString()).isEqualTo("RPCs for Dummies.");
        assertThat(distributed.json().get(0).propertyNames()).containsExactlyInAnyOrder("id", "title");
        assertThat(graduate.json().valueStream().map(b -> b.path("id").asLong()))
                .startsWith(3L, 4L, 6L, 7L);
    }

    @Test
    void searchForAnUnknownTopicIsEmpty() {
        Response response = get("/books?topic=astrology");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().isArray()).isTrue();
        assertThat(response.json().size()).isZero();
    }

    @Test
    void lookupReturnsTheSeededBook() {
        JsonNode book = get("/books/3").json();

        assertThat(book.path("title").asString()).isEqualTo("Xen and the Art of Surviving Graduate School.");
        assertThat(book.path("topic").asString()).isEqualTo("graduate school");
        assertThat(decimal(book.path("price"))).isPositive();
        assertThat(book.path("stock").asLong()).isPositive();
        assertThat(book.path("version").asLong()).isPositive();
    }

    @Test
    void lookupOfAnUnknownBookIs404Problem() {
        Response response = get("/books/987654");

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.isProblem()).isTrue();
        assertThat(response.problemType()).isEqualTo("https://agora.dev/problems/not-found");
    }

    @Test
    void adminRegistersATitleThatSearchAndLookupThenFind() {
        Response created = post(
                "/admin/books",
                """
                {"title":"Consensus in Practice","topic":"registering","price":41.5,"stock":7}""",
                AUTHORIZATION,
                admin());

        assertThat(created.status()).isEqualTo(201);
        long id = created.json().path("id").asLong();
        assertThat(id).isGreaterThan(7);
        JsonNode book = book(id);
        assertThat(decimal(book.path("price"))).isEqualByComparingTo("41.50");
        assertThat(book.path("stock").asLong()).isEqualTo(7);
        assertThat(book.path("version").asLong()).isEqualTo(1);
        assertThat(get("/books?topic=registering").json().get(0).path("title").asString())
                .isEqualTo("Consensus in Practice");
    }

    @Test
    void adminChangesAPriceAndEachChangeBumpsTheVersion() {
        long id = newBook("pricing", 5).path("id").asLong();

        Response changed = put("/admin/books/" + id + "/price", "{\"price\":9.99}", AUTHORIZATION, admin());

        assertThat(changed.status()).isEqualTo(200);
        assertThat(decimal(changed.json().path("price"))).isEqualByComparingTo("9.99");
        assertThat(changed.json().path("version").asLong()).isEqualTo(2);
        assertThat(decimal(book(id).path("price"))).isEqualByComparingTo("9.99");
    }

    @Test
    void adminRestocksByAddingCopies() {
        long id = newBook("restocking", 5).path("id").asLong();

        Response restocked = post("/admin/books/" + id + "/restock", "{\"quantity\":20}", AUTHORIZATION, admin());

        assertThat(restocked.status()).isEqualTo(200);
        assertThat(restocked.json().path("stock").asLong()).isEqualTo(25);
        assertThat(book(id).path("stock").asLong()).isEqualTo(25);
    }

    @Test
    void adminCallsWithoutTokenAre401AndByACallerWithoutTheRoleAre403AndChangeNothing() {
        JsonNode before = book(1);

        Response noTokenPrice = put("/admin/books/1/price", "{\"price\":1.00}");
        Response customerPrice = put("/admin/books/1/price", "{\"price\":1.00}", AUTHORIZATION, customer());
        Response noTokenRestock = post("/admin/books/1/restock", "{\"quantity\":5}");
        Response customerRestock = post("/admin/books/1/restock", "{\"quantity\":5}", AUTHORIZATION, customer());
        Response serviceIsNotAdmin = post("/admin/books/1/restock", "{\"quantity\":5}", AUTHORIZATION, service());
        Response noTokenRegister =
                post("/admin/books", "{\"title\":\"t\",\"topic\":\"no-token\",\"price\":1,\"stock\":1}");

        assertThat(noTokenPrice.status()).isEqualTo(401);
        assertThat(noTokenRestock.status()).isEqualTo(401);
        assertThat(noTokenRegister.status()).isEqualTo(401);
        assertThat(customerPrice.status()).isEqualTo(403);
        assertThat(customerRestock.status()).isEqualTo(403);
        assertThat(serviceIsNotAdmin.status()).isEqualTo(403);
        assertThat(noTokenPrice.isProblem()).isTrue();
        assertThat(noTokenPrice.problemType()).isEqualTo("https://agora.dev/problems/unauthorized");
        assertThat(customerPrice.problemType()).isEqualTo("https://agora.dev/problems/forbidden");
        assertThat(book(1)).isEqualTo(before);
        assertThat(get("/books?topic=no-token").json().size()).isZero();
    }

    @Test
    void publishersAndAdminsBothManageTitles() {
        Response byPublisher = post(
                "/admin/books",
                """
                {"title":"By a publisher","topic":"managed","price":3,"stock":1}""",
                AUTHORIZATION,
                publisher());
        long id = byPublisher.json().path("id").asLong();
        Response byAdmin = put("/admin/books/" + id + "/price", "{\"price\":4.00}", AUTHORIZATION, admin());

        assertThat(byPublisher.status()).isEqualTo(201);
        assertThat(byAdmin.status()).isEqualTo(200);
        assertThat(decimal(book(id).path("price"))).isEqualByComparingTo("4.00");
    }

    @Test
    void searchAndLookupNeedNoToken() {
        assertThat(get("/books/1").status()).isEqualTo(200);
        assertThat(get("/books?topic=distributed%20systems").status()).isEqualTo(200);
    }

    @Test
    void reservationsNeedAServiceToken() {
        Response noToken = post("/internal/reservations", "{\"orderId\":1,\"bookId\":1,\"quantity\":1}");
        Response adminToken =
                post("/internal/reservations", "{\"orderId\":1,\"bookId\":1,\"quantity\":1}", AUTHORIZATION, admin());

        assertThat(noToken.status()).isEqualTo(401);
        assertThat(adminToken.status()).isEqualTo(403);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"quantity\":0}",
                "{\"quantity\":-3}",
                "{\"quantity\":1.5}",
                "{\"quantity\":\"many\"}",
                "{\"quantity\":99999999999999999999}",
                "{\"quantity\":1000001}",
                "{}",
                "{\"quantity\":5",
                "not json"
            })
    void badRestocksAre400ProblemsAndChangeNothing(String body) {
        long id = newBook("bad-restock", 5).path("id").asLong();
        JsonNode before = book(id);

        Response response = post("/admin/books/" + id + "/restock", body, AUTHORIZATION, admin());

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.isProblem()).isTrue();
        assertThat(response.problemType())
                .isIn("https://agora.dev/problems/bad-request", "https://agora.dev/problems/validation");
        assertThat(response.json().toString()).doesNotContain("Exception", "at dev.agora");
        assertThat(book(id)).isEqualTo(before);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1.00", "0.001", "123456789.00", "1e12", "\"free\"", "null"})
    void badPricesAre400ProblemsAndChangeNothing(String price) {
        long id = newBook("bad-price", 5).path("id").asLong();
        JsonNode before = book(id);

        Response response = put("/admin/books/" + id + "/price", "{\"price\":" + price + "}", AUTHORIZATION, admin());

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.isProblem()).isTrue();
        assertThat(book(id)).isEqualTo(before);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"title\":\"\",\"topic\":\"t\",\"price\":1,\"stock\":1}",
                "{\"title\":\"t\",\"topic\":\" \",\"price\":1,\"stock\":1}",
                "{\"title\":\"t\",\"topic\":\"t\",\"price\":0,\"stock\":1}",
                "{\"title\":\"t\",\"topic\":\"t\",\"price\":1,\"stock\":-1}",
                "{\"title\":\"t\",\"topic\":\"t\",\"price\":1}",
                "{\"title\":\"t\",\"topic\":\"t\",\"stock\":1}"
            })
    void badRegistrationsAre400AndRegisterNothing(String body) {
        Response response = post("/admin/books", body, AUTHORIZATION, admin());

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.isProblem()).isTrue();
        assertThat(get("/books?topic=t").json().size()).isZero();
    }

    @Test
    void changesOfUnknownBooksAre404Problems() {
        Response price = put("/admin/books/987654/price", "{\"price\":5}", AUTHORIZATION, admin());
        Response restock = post("/admin/books/987654/restock", "{\"quantity\":5}", AUTHORIZATION, admin());

        assertThat(price.status()).isEqualTo(404);
        assertThat(restock.status()).isEqualTo(404);
        assertThat(price.problemType()).isEqualTo("https://agora.dev/problems/not-found");
        assertThat(restock.isProblem()).isTrue();
    }

    @Test
    void malformedIdsAre400Problems() {
        assertThat(get("/books/abc").status()).isEqualTo(400);
        assertThat(get("/books/-4").status()).isEqualTo(400);
        assertThat(get("/books").status()).isEqualTo(400);
    }

    @Test
    void pricesAreExactDecimalsWithTwoPlaces() {
        long id = newBook("decimals", 1).path("id").asLong();
        put("/admin/books/" + id + "/price", "{\"price\":0.10}", AUTHORIZATION, admin());

        Response reserved = reserve(nextOrderId(), id, 1);

        assertThat(reserved.body()).contains("\"unitPrice\":0.10", "\"total\":0.10");
        assertThat(decimal(reserved.json().path("total"))).isEqualByComparingTo(new BigDecimal("0.10"));
    }
}
