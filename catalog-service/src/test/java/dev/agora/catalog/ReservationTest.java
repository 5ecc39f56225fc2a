package dev.agora.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class ReservationTest extends CatalogTestSupport {

    @Autowired
    DataSource dataSource;

    @Test
    void reservingTakesCopiesAndReportsPriceTotalAndStockLeft() {
        long bookId = newBook("reserving", 10).path("id").asLong();
        long orderId = nextOrderId();

        Response response = reserve(orderId, bookId, 3);

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().path("orderId").asLong()).isEqualTo(orderId);
        assertThat(response.json().path("outcome").asString()).isEqualTo("RESERVED");
        assertThat(decimal(response.json().path("unitPrice"))).isEqualByComparingTo("12.50");
        assertThat(decimal(response.json().path("total"))).isEqualByComparingTo("37.50");
        assertThat(response.json().path("stockAfter").asLong()).isEqualTo(7);
        assertThat(book(bookId).path("stock").asLong()).isEqualTo(7);
        assertThat(book(bookId).path("version").asLong()).isEqualTo(2);
    }

    @Test
    void tooFewCopiesIsAnOrdinaryOutOfStockOutcomeThatTakesNothing() {
        long bookId = newBook("reserving", 2).path("id").asLong();

        Response response = reserve(nextOrderId(), bookId, 3);

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().path("outcome").asString()).isEqualTo("OUT_OF_STOCK");
        assertThat(response.json().path("total").isNull()).isTrue();
        assertThat(book(bookId).path("stock").asLong()).isEqualTo(2);
        assertThat(book(bookId).path("version").asLong()).isEqualTo(1);
    }

    @Test
    void concurrentReservationsNeverOversell() throws Exception {
        int copies = 20;
        int buyers = 64;
        long bookId = newBook("contended", copies).path("id").asLong();

        // 64 transactions queue for one row: on a busy box the last may wait out the lock timeout and be refused,
        // with nothing applied; its caller repeats it under the same order id, as the order service's client does.
        List<Response> responses = concurrently(buyers, i -> reserveUntilApplied(nextOrderId(), bookId, 1));

        assertThat(responses).allSatisfy(r -> assertThat(r.status()).isEqualTo(200));
        assertThat(responses.stream().filter(r -> outcome(r).equals("RESERVED")))
                .hasSize(copies);
        assertThat(responses.stream().filter(r -> outcome(r).equals("OUT_OF_STOCK")))
                .hasSize(buyers - copies);
        assertThat(book(bookId).path("stock").asLong()).isZero();
        assertThat(book(bookId).path("version").asLong()).isEqualTo(1 + copies);
        assertThat(responses.stream()
                        .filter(r -> outcome(r).equals("RESERVED"))
                        .map(r -> r.json().path("stockAfter").asLong()))
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.range(0, copies).mapToObj(Long::valueOf).toList());
        assertThat(reservedRows(bookId)).isEqualTo(copies);
    }

    @Test
    void aRepeatedOrderIdReturnsTheFirstOutcomeAndTakesNothingMore() {
        long bookId = newBook("repeating", 5).path("id").asLong();
        long orderId = nextOrderId();

        Response first = reserve(orderId, bookId, 2);
        Response second = reserve(orderId, bookId, 2);
        Response third = reserve(orderId, bookId, 2);

        assertThat(second.json()).isEqualTo(first.json());
        assertThat(third.json()).isEqualTo(first.json());
        assertThat(book(bookId).path("stock").asLong()).isEqualTo(3);
        assertThat(get("/internal/reservations/" + orderId).status()).isEqualTo(401);
    }

    @Test
    void aRepeatAfterOutOfStockStaysOutOfStockEvenWhenStockArrived() {
        long bookId = newBook("repeating", 1).path("id").asLong();
        long orderId = nextOrderId();

        Response first = reserve(orderId, bookId, 2);
        post("/admin/books/" + bookId + "/restock", "{\"quantity\":10}", AUTHORIZATION, admin());
        Response repeat = reserve(orderId, bookId, 2);

        assertThat(outcome(first)).isEqualTo("OUT_OF_STOCK");
        assertThat(repeat.json()).isEqualTo(first.json());
        assertThat(book(bookId).path("stock").asLong()).isEqualTo(11);
    }

    @Test
    void concurrentRepeatsOfOneOrderIdReserveOnce() throws Exception {
        long bookId = newBook("repeating", 50).path("id").asLong();
        long orderId = nextOrderId();

        List<Response> responses = concurrently(32, i -> reserve(orderId, bookId, 3));

        assertThat(responses).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.json()).isEqualTo(responses.getFirst().json());
        });
        assertThat(outcome(responses.getFirst())).isEqualTo("RESERVED");
        assertThat(book(bookId).path("stock").asLong()).isEqualTo(47);
        assertThat(reservedRows(bookId)).isEqualTo(1);
    }

    @Test
    void callsForOneOrderThatWaitedForItsBookTogetherReserveOnceAndAnswerAlike() throws Exception {
        long bookId = newBook("racing-claims", 5).path("id").asLong();
        long orderId = nextOrderId();
        List<Response> responses = new ArrayList<>();
        try (Connection holder = dataSource.getConnection();
                ExecutorService racers = Executors.newFixedThreadPool(2)) {
            holder.setAutoCommit(false);
            try (Statement lock = holder.createStatement()) {
                // This session waits longer than the pool's sessions may idle in a transaction.
                lock.execute("SET LOCAL idle_in_transaction_session_timeout = 0");
                lock.executeQuery("SELECT id FROM books WHERE id = " + bookId + " FOR UPDATE")
                        .close();
            }
            List<Future<Response>> racing = List.of(
                    racers.submit(() -> reserve(orderId, bookId, 2)), racers.submit(() -> reserve(orderId, bookId, 2)));
            long waitingSince = System.nanoTime();
            // Both calls hold their transaction open, waiting for the book: neither has seen the other's claim.
            while (sessionsWaitingForALock() < 2) {
                assertThat(System.nanoTime() - waitingSince).isLessThan(TimeUnit.SECONDS.toNanos(10));
                Thread.sleep(5);
            }
            holder.commit();
            for (Future<Response> call : racing) responses.add(call.get(10, TimeUnit.SECONDS));
        }

        assertThat(responses).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.json()).isEqualTo(responses.getFirst().json());
        });
        assertThat(outcome(responses.getFirst())).isEqualTo("RESERVED");
        assertThat(book(bookId).path("stock").asLong())
                .as("the second call's copies were given back")
                .isEqualTo(3);
        assertThat(reservedRows(bookId)).isEqualTo(1);

        Response repeated = reserve(orderId, bookId, 2);
        assertThat(outcome(repeated)).isEqualTo("RESERVED");
        assertThat(repeated.json().path("stockAfter").asLong()).isEqualTo(3);
        assertThat(book(bookId).path("stock").asLong()).isEqualTo(3);
    }

    private long sessionsWaitingForALock() {
        return jdbc.sql("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                        + " AND datname = current_database()")
                .query(Long.class)
                .single();
    }

    @Test
    void theOutcomeOfAnOrderCanBeReadBack() {
        long bookId = newBook("reading-back", 5).path("id").asLong();
        long orderId = nextOrderId();
        Response made = reserve(orderId, bookId, 1);

        Response read = get("/internal/reservations/" + orderId, AUTHORIZATION, service());
        Response none = get("/internal/reservations/" + nextOrderId(), AUTHORIZATION, service());

        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json()).isEqualTo(made.json());
        assertThat(none.status()).isEqualTo(404);
        assertThat(none.isProblem()).isTrue();
    }

    @Test
    void theOutcomesOfSeveralOrdersAreReadBackInOneCallAndOrdersWithoutOneAreLeftOut() {
        long bookId = newBook("reading-back-several", 1).path("id").asLong();
        long reservedId = nextOrderId();
        long refusedId = nextOrderId();
        long undecidedId = nextOrderId();
        Response reserved = reserve(reservedId, bookId, 1);
        Response refused = reserve(refusedId, bookId, 1);

        Response read = get(
                "/internal/reservations?orderId=" + undecidedId + "&orderId=" + refusedId + "&orderId=" + reservedId,
                AUTHORIZATION,
                service());

        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json().valueStream().toList()).containsExactly(reserved.json(), refused.json());
        assertThat(refused.json().path("outcome").asString()).isEqualTo("OUT_OF_STOCK");
    }

    @Test
    void aReadOfSeveralOrdersWithBadIdsOrTooManyOrNoTokenIsRefused() {
        String tooMany = "orderId=1" + "&orderId=1".repeat(100); // 101 ids; a read may ask for a page of 100

        for (String query : List.of("", "?orderId=0", "?orderId=-3", "?orderId=abc", "?orderId=1.5", "?" + tooMany)) {
            Response read = get("/internal/reservations" + query, AUTHORIZATION, service());
            assertThat(read.status()).as(query).isEqualTo(400);
            assertThat(read.isProblem()).as(query).isTrue();
        }
        assertThat(get("/internal/reservations?orderId=1").status()).isEqualTo(401);
        assertThat(get("/internal/reservations?orderId=1", AUTHORIZATION, customer())
                        .status())
                .isEqualTo(403);
    }

    @Test
    void anUnknownBookIs404AndRecordsNothing() {
        long orderId = nextOrderId();

        Response response = reserve(orderId, 987654, 1);

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.problemType()).isEqualTo("https://agora.dev/problems/not-found");
        assertThat(get("/internal/reservations/" + orderId, AUTHORIZATION, service())
                        .status())
                .isEqualTo(404);
    }

    @Test
    void anOrderIdReusedForAnotherRequestIs409AndChangesNothing() {
        long bookId = newBook("reusing", 5).path("id").asLong();
        long orderId = nextOrderId();
        reserve(orderId, bookId, 1);

        Response otherQuantity = reserve(orderId, bookId, 2);
        Response otherBook = reserve(orderId, 1, 1);

        assertThat(otherQuantity.status()).isEqualTo(409);
        assertThat(otherBook.status()).isEqualTo(409);
        assertThat(otherQuantity.problemType()).isEqualTo("https://agora.dev/problems/conflict");
        assertThat(book(bookId).path("stock").asLong()).isEqualTo(4);
    }

    @Test
    void badReservationsAre400ProblemsAndChangeNothing() {
        long bookId = newBook("bad-reservations", 5).path("id").asLong();
        List<String> bodies = List.of(
                "{\"orderId\":%d,\"bookId\":%d,\"quantity\":0}",
                "{\"orderId\":%d,\"bookId\":%d,\"quantity\":-1}",
                "{\"orderId\":%d,\"bookId\":%d,\"quantity\":1001}",
                "{\"orderId\":%d,\"bookId\":%d,\"quantity\":4294967297}",
                "{\"orderId\":%d,\"bookId\":%d}",
                "{\"orderId\":-%d,\"bookId\":%d,\"quantity\":1}",
                "{\"orderId\":%d,\"bookId\":%d,\"quantity\":1");
        for (String body : bodies) {
            Response response =
                    post("/internal/reservations", body.formatted(nextOrderId(), bookId), AUTHORIZATION, service());

            assertThat(response.status()).as(body).isEqualTo(400);
            assertThat(response.isProblem()).as(body).isTrue();
        }
        assertThat(book(bookId).path("stock").asLong()).isEqualTo(5);
        assertThat(reservedRows(bookId)).isZero();
    }

    @Test
    void aReplicaFrozenHoldingABooksRowStallsNeitherLookupsNorOtherBooksAndItsReservationsAre503NotApplied()
            throws Exception {
        long held = newBook("frozen-holder", 5).path("id").asLong();
        long other = newBook("frozen-holder", 20).path("id").asLong();
        try (Connection frozen = dataSource.getConnection()) {
            // Another replica frozen (SIGSTOP) right after its reservation's update: the book's row stays locked.
            // Frozen for longer than its session could idle in a transaction here, so only the lock timeout helps.
            frozen.setAutoCommit(false);
            try (Statement reservation = frozen.createStatement()) {
                reservation.execute("SET LOCAL idle_in_transaction_session_timeout = 0");
                reservation.executeUpdate(
                        "UPDATE books SET stock = stock - 1, version = version + 1 WHERE id = " + held);
            }

            // More reservations of the held book than this replica has connections, with lookups and reservations
            // of another book among them: each reservation of the held book gives up after the lock timeout, so they
            // cannot keep the pool from the rest.
            List<Response> responses = concurrently(32, i -> switch (i % 4) {
                case 0, 1 -> reserve(nextOrderId(), held, 1);
                case 2 -> get("/books/" + (i % 8 == 2 ? held : other));
                default -> reserve(nextOrderId(), other, 1);
            });

            for (int i = 0; i < responses.size(); i++) {
                Response response = responses.get(i);
                switch (i % 4) {
                    case 0, 1 -> {
                        assertThat(response.status())
                                .as("reservation of the held book")
                                .isEqualTo(503);
                        assertThat(response.problemType()).isEqualTo("https://agora.dev/problems/not-applied");
                    }
                    case 2 ->
                        assertThat(response.status()).as("lookup: %s", response).isEqualTo(200);
                    default ->
                        assertThat(outcome(response))
                                .as("other book: %s", response)
                                .isEqualTo("RESERVED");
                }
            }
            assertThat(book(other).path("stock").asLong()).isEqualTo(20 - 8);
            assertThat(reservedRows(held)).as("nothing applied").isZero();
            frozen.rollback();
        }
        assertThat(outcome(reserve(nextOrderId(), held, 1)))
                .as("the book sells again once the frozen transaction ended")
                .isEqualTo("RESERVED");
        assertThat(book(held).path("stock").asLong()).isEqualTo(4);
    }

    @Test
    void aSessionStuckInsideATransactionIsEndedSoItsRowLockCannotStallReservations() throws Exception {
        long bookId = newBook("stalled", 5).path("id").asLong();
        try (Connection stuck = dataSource.getConnection()) {
            // Like a replica frozen mid-reservation, with the sessions' own settings: it holds the book's row lock and
            // then does nothing, until PostgreSQL ends its session (idle_in_transaction_session_timeout).
            stuck.setAutoCommit(false);
            try (Statement lock = stuck.createStatement()) {
                lock.executeUpdate("UPDATE books SET stock = stock WHERE id = " + bookId);
            }

            // As the order service does: a 503 not-applied answer is sent again, until the book is free.
            long orderId = nextOrderId();
            long since = System.nanoTime();
            Response reserved = reserve(orderId, bookId, 1);
            while (reserved.status() == 503) {
                assertThat(reserved.problemType()).isEqualTo("https://agora.dev/problems/not-applied");
                assertThat(System.nanoTime() - since)
                        .as("the stuck session's lock outlived its session timeout")
                        .isLessThan(TimeUnit.SECONDS.toNanos(20));
                reserved = reserve(orderId, bookId, 1);
            }

            assertThat(outcome(reserved)).as("%s", reserved).isEqualTo("RESERVED");
            assertThatThrownBy(stuck::commit).isInstanceOf(SQLException.class);
        }
        assertThat(book(bookId).path("stock").asLong()).isEqualTo(4);
    }

    interface Call {
        Response run(int index) throws Exception;
    }

    /** Runs the calls on real threads released together, and returns their responses in call order. */
    static List<Response> concurrently(int calls, Call call) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService threads = Executors.newFixedThreadPool(calls)) {
            List<Future<Response>> futures = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                int index = i;
                futures.add(threads.submit((Callable<Response>) () -> {
                    start.await();
                    return call.run(index);
                }));
            }
            start.countDown();
            List<Response> responses = new ArrayList<>();
            for (Future<Response> future : futures) responses.add(future.get(60, TimeUnit.SECONDS));
            return responses;
        }
    }

    /** A reservation repeated while it is refused as not applied (a lock wait past the timeout), at most 5 times. */
    private Response reserveUntilApplied(long orderId, long bookId, int quantity) {
        Response response = reserve(orderId, bookId, quantity);
        for (int attempt = 1; attempt < 5 && response.status() == 503; attempt++) {
            assertThat(response.problemType()).isEqualTo("https://agora.dev/problems/not-applied");
            response = reserve(orderId, bookId, quantity);
        }
        return response;
    }
}
