package dev.agora.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /internal/reservations/batch} (docs/internal-api.md): the order service's waiting reservations in one
 * call, decided together in one transaction, each answered as the single call would answer it.
 */
class ReservationBatchCallTest extends CatalogTestSupport {

    @Autowired
    MeterRegistry meters;

    record Item(long orderId, long bookId, int quantity) {
        String json() {
            return """
                    {"orderId":%d,"bookId":%d,"quantity":%d}"""
                    .formatted(orderId, bookId, quantity);
        }
    }

    Response batch(List<Item> items) {
        return post(
                "/internal/reservations/batch",
                items.stream().map(Item::json).collect(Collectors.joining(",", "[", "]")),
                AUTHORIZATION,
                service());
    }

    @Test
    void aBatchIsDecidedInOneCommitAndEachEntryIsWhatTheSingleCallWouldAnswer() {
        long plenty = newBook("batch-call", 10).path("id").asLong();
        long scarce = newBook("batch-call", 1).path("id").asLong();
        long unknown = 9_999_999L;
        long repeated = nextOrderId();
        long reusedBefore = nextOrderId();
        assertThat(outcome(reserve(reusedBefore, plenty, 1))).isEqualTo("RESERVED");
        double transactionsBefore = transactions();
        List<Item> items = List.of(
                new Item(repeated, plenty, 2),
                new Item(nextOrderId(), scarce, 1),
                new Item(nextOrderId(), scarce, 1),
                new Item(repeated, plenty, 2),
                new Item(nextOrderId(), unknown, 1),
                new Item(repeated, plenty, 3),
                new Item(reusedBefore, plenty, 5));

        Response answer = batch(items);

        assertThat(answer.status()).as("%s", answer).isEqualTo(200);
        JsonNode entries = answer.json();
        assertThat(entries.size()).isEqualTo(items.size());
        JsonNode first = entries.get(0);
        assertThat(first.path("status").asInt()).isEqualTo(200);
        assertThat(first.path("reservation").path("outcome").asString()).isEqualTo("RESERVED");
        assertThat(first.path("reservation").path("orderId").asLong()).isEqualTo(repeated);
        assertThat(first.path("reservation").path("stockAfter").asLong()).isEqualTo(7);
        assertThat(decimal(first.path("reservation").path("total")))
                .isEqualByComparingTo(decimal(book(plenty).path("price")).multiply(java.math.BigDecimal.TWO));
        assertThat(entries.get(1).path("reservation").path("outcome").asString())
                .isEqualTo("RESERVED");
        assertThat(entries.get(2).path("reservation").path("outcome").asString())
                .as("the second of one copy")
                .isEqualTo("OUT_OF_STOCK");
        assertThat(entries.get(3).path("reservation"))
                .as("a repeat inside the batch: the first reservation")
                .isEqualTo(first.path("reservation"));
        assertProblem(entries.get(4), 404, "https://agora.dev/problems/not-found");
        assertProblem(entries.get(5), 409, "https://agora.dev/problems/conflict");
        assertProblem(entries.get(6), 409, "https://agora.dev/problems/conflict");
        assertThat(transactions() - transactionsBefore)
                .as("the batch's transaction, rolled back for the order id claimed before, then the rest's")
                .isEqualTo(2);
        assertThat(book(plenty).path("stock").asLong()).isEqualTo(7);
        assertThat(book(scarce).path("stock").asLong()).isZero();
        assertThat(reservedRows(plenty)).isEqualTo(2);
        assertThat(reserve(repeated, plenty, 2).json())
                .as("a single call later answers the batch's reservation")
                .isEqualTo(first.path("reservation"));
    }

    @Test
    void aBatchWithoutRepeatsIsExactlyOneTransaction() {
        long book = newBook("batch-call-one", 10).path("id").asLong();
        double transactionsBefore = transactions();
        double decidedBefore = decided();

        Response answer = batch(List.of(
                new Item(nextOrderId(), book, 1), new Item(nextOrderId(), book, 2), new Item(nextOrderId(), book, 3)));

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.json().findValuesAsString("outcome")).containsExactly("RESERVED", "RESERVED", "RESERVED");
        assertThat(answer.json().findValues("stockAfter").stream().map(JsonNode::asLong))
                .containsExactly(9L, 7L, 4L);
        assertThat(transactions() - transactionsBefore).isEqualTo(1);
        assertThat(decided() - decidedBefore).isEqualTo(3);
        assertThat(book(book).path("version").asLong())
                .as("one version per take")
                .isEqualTo(4);
    }

    @Test
    void aRepeatAcrossSingleAndBatchCallsIsAnsweredWithTheFirstReservationAndTakesNothing() {
        long book = newBook("batch-call-repeat", 5).path("id").asLong();
        long singleFirst = nextOrderId();
        long batchFirst = nextOrderId();
        Response single = reserve(singleFirst, book, 1);

        Response batched = batch(List.of(new Item(singleFirst, book, 1), new Item(batchFirst, book, 2)));
        Response again = batch(List.of(new Item(batchFirst, book, 2)));

        assertThat(batched.json().get(0).path("reservation")).isEqualTo(single.json());
        assertThat(again.json().get(0).path("reservation"))
                .isEqualTo(batched.json().get(1).path("reservation"));
        assertThat(reserve(batchFirst, book, 2).json())
                .isEqualTo(batched.json().get(1).path("reservation"));
        assertThat(book(book).path("stock").asLong()).isEqualTo(2);
        assertThat(reservedRows(book)).isEqualTo(2);
    }

    @Test
    void batchesAndSingleCallsTogetherNeverOversell() throws Exception {
        long book = newBook("batch-call-race", 20).path("id").asLong();
        List<Future<List<String>>> calls = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(12)) {
            for (int b = 0; b < 4; b++) {
                calls.add(threads.submit(() -> batch(IntStream.range(0, 10)
                                .mapToObj(i -> new Item(nextOrderId(), book, 1))
                                .toList())
                        .json()
                        .findValuesAsString("outcome")));
            }
            for (int s = 0; s < 20; s++) {
                calls.add(threads.submit(() -> List.of(outcome(reserve(nextOrderId(), book, 1)))));
            }
            List<String> outcomes = new ArrayList<>();
            for (Future<List<String>> call : calls) outcomes.addAll(call.get(30, TimeUnit.SECONDS));

            assertThat(outcomes).hasSize(60);
            assertThat(outcomes.stream().filter("RESERVED"::equals)).hasSize(20);
            assertThat(outcomes.stream().filter("OUT_OF_STOCK"::equals)).hasSize(40);
        }
        assertThat(book(book).path("stock").asLong()).isZero();
        assertThat(reservedRows(book)).isEqualTo(20);
    }

    @Test
    void aBadBodyIs400AndDecidesNothing() {
        long book = newBook("batch-call-bad", 100).path("id").asLong();
        long orderId = nextOrderId();
        String good = new Item(orderId, book, 1).json();
        List<String> bodies = new ArrayList<>(List.of(
                "[]",
                "{}",
                "[" + good + ",",
                "[" + good + ",null]",
                "[" + good + "," + new Item(nextOrderId(), book, 0).json() + "]",
                "[" + good + ",{\"orderId\":" + nextOrderId() + ",\"bookId\":" + book + "}]",
                "[" + good + ",{\"orderId\":\"x\",\"bookId\":" + book + ",\"quantity\":1}]"));
        bodies.add(IntStream.range(0, 65)
                .mapToObj(i -> new Item(orderId + 100_000 + i, book, 1).json())
                .collect(Collectors.joining(",", "[", "]")));

        for (String body : bodies) {
            Response refused = post("/internal/reservations/batch", body, AUTHORIZATION, service());
            assertThat(refused.status()).as(body).isEqualTo(400);
            assertThat(refused.isProblem()).as(body).isTrue();
        }

        assertThat(reservedRows(book)).isZero();
        assertThat(book(book).path("stock").asLong()).isEqualTo(100);
        assertThat(get("/internal/reservations/" + orderId, AUTHORIZATION, service())
                        .status())
                .isEqualTo(404);
        assertThat(batch(IntStream.range(0, 64)
                                .mapToObj(i -> new Item(nextOrderId(), book, 1))
                                .toList())
                        .json()
                        .size())
                .as("64 is allowed")
                .isEqualTo(64);
    }

    @Test
    void aBatchIsAnsweredOnlyOnceTheFrontendsAcknowledgedItsChanges() throws Exception {
        long book = newBook("batch-call-pushes", 10).path("id").asLong();
        CompletableFuture<Response> answer;
        FRONTEND.holdAcknowledgements();
        try {
            answer = CompletableFuture.supplyAsync(
                    () -> batch(List.of(new Item(nextOrderId(), book, 1), new Item(nextOrderId(), book, 2))));
            for (FakeFrontend frontend : List.of(FRONTEND, OTHER_FRONTEND)) {
                Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> frontend.receivedFor(book).stream()
                        .anyMatch(r -> r.body().path("version").asLong() == 3));
            }
            Thread.sleep(200);
            assertThat(answer)
                    .as("not answered while a frontend has not acknowledged")
                    .isNotDone();
        } finally {
            FRONTEND.releaseAcknowledgements();
        }
        Response response = answer.get(10, TimeUnit.SECONDS);
        assertThat(response.json().findValuesAsString("outcome")).containsExactly("RESERVED", "RESERVED");
    }

    private static void assertProblem(JsonNode entry, int status, String type) {
        assertThat(entry.path("status").asInt()).as("%s", entry).isEqualTo(status);
        assertThat(entry.path("problem").path("status").asInt()).isEqualTo(status);
        assertThat(entry.path("problem").path("type").asString()).isEqualTo(type);
        assertThat(entry.has("reservation")).isFalse();
    }

    private double transactions() {
        return meters.get("agora.reservations.batch").summary().count();
    }

    private double decided() {
        return meters.get("agora.reservations.batch").summary().totalAmount();
    }
}
