package dev.agora.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.LongStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Group commit of reservations (catalog-service/README.md, "Data tier"): reservations that wait while the writer is
 * busy are decided together in one transaction, with every guarantee of one decided alone. To make a batch form for
 * sure, a test holds every connection of the catalog's pool and sends {@value #PLUGS} "plugs": the first two
 * reservations, each decided on its request's thread because fewer than two are being decided, and the third, handed
 * to the writer because two are under way; all three stall on the pool while the others queue behind them. Released,
 * the writer decides the third plug, then everything that waited in one go.
 */
class ReservationBatchTest extends CatalogTestSupport {

    /** Two decided on their own threads (the reservation writer's {@code OWN_WRITES}), then the writer's. */
    private static final int PLUGS = 3;

    @Autowired
    HikariDataSource database;

    @Autowired
    MeterRegistry meters;

    @Test
    void reservationsThatWaitedTogetherAreDecidedInOneCommitAndNothingIsOversoldOrDoubled() throws Exception {
        long plentiful = newBook("batched", 30).path("id").asLong();
        long scarce = newBook("batched", 10).path("id").asLong();
        long nearlyGone = newBook("batched", 2).path("id").asLong();
        long plugBook = newBook("batched", 5).path("id").asLong();
        List<Long> books = new ArrayList<>();
        for (int i = 0; i < 15; i++) books.add(plentiful);
        for (int i = 0; i < 20; i++) books.add(scarce);
        for (int i = 0; i < 5; i++) books.add(nearlyGone);
        double transactionsBefore = batches().count();
        double decidedBefore = batches().totalAmount();

        List<Response> responses =
                queuedBehindAPlug(plugBook, books.size(), i -> reserve(nextOrderId(), books.get(i), 1));

        assertThat(responses).allSatisfy(r -> assertThat(r.status()).as("%s", r).isEqualTo(200));
        assertThat(batches().count() - transactionsBefore)
                .as("the writer's transactions: the third plug's, then one for the %d that waited", books.size())
                .isEqualTo(2);
        assertThat(batches().totalAmount() - decidedBefore).isEqualTo(books.size() + 1);
        assertSold(plentiful, responses, books, 30, 15);
        assertSold(scarce, responses, books, 10, 10);
        assertSold(nearlyGone, responses, books, 2, 2);
        assertThat(book(plugBook).path("stock").asLong()).isEqualTo(5 - PLUGS);
    }

    /** Of a book with {@code copies}, {@code sold} were reserved, each with its own stock after, and no more. */
    private void assertSold(long bookId, List<Response> responses, List<Long> books, long copies, long sold) {
        List<Response> ofBook = new ArrayList<>();
        for (int i = 0; i < responses.size(); i++) if (books.get(i) == bookId) ofBook.add(responses.get(i));
        List<Response> reserved =
                ofBook.stream().filter(r -> outcome(r).equals("RESERVED")).toList();
        assertThat(reserved).as("reserved of book %d", bookId).hasSize((int) sold);
        assertThat(ofBook.stream().filter(r -> outcome(r).equals("OUT_OF_STOCK")))
                .hasSize(ofBook.size() - (int) sold);
        assertThat(reserved.stream().map(r -> r.json().path("stockAfter").asLong()))
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(copies - sold, copies).boxed().toList());
        assertThat(book(bookId).path("stock").asLong()).isEqualTo(copies - sold);
        assertThat(book(bookId).path("version").asLong())
                .as("one version per take")
                .isEqualTo(1 + sold);
        assertThat(reservedRows(bookId)).isEqualTo(sold);
    }

    @Test
    void aRepeatInsideOneBatchIsAnsweredWithTheFirstReservationAndTakesNothingAndAReuseIsAConflict() throws Exception {
        long bookId = newBook("batched-repeats", 10).path("id").asLong();
        long plugBook = newBook("batched-repeats", 5).path("id").asLong();
        long repeated = nextOrderId();
        long other = nextOrderId();
        // In this order into one batch: the first, its repeat, a reuse of its id for more copies, another order.
        List<Function<Integer, Response>> calls = List.of(
                i -> reserve(repeated, bookId, 2),
                i -> reserve(repeated, bookId, 2),
                i -> reserve(repeated, bookId, 3),
                i -> reserve(other, bookId, 1));
        double transactionsBefore = batches().count();

        List<Response> responses =
                queuedBehindAPlug(plugBook, calls.size(), i -> calls.get(i).apply(i), true);

        assertThat(batches().count() - transactionsBefore).isEqualTo(2);
        Response first = responses.get(0);
        assertThat(first.status()).isEqualTo(200);
        assertThat(outcome(first)).isEqualTo("RESERVED");
        assertThat(first.json().path("stockAfter").asLong()).isEqualTo(8);
        assertThat(responses.get(1).status()).isEqualTo(200);
        assertThat(responses.get(1).json()).isEqualTo(first.json());
        assertThat(responses.get(2).status()).isEqualTo(409);
        assertThat(responses.get(2).problemType()).isEqualTo("https://agora.dev/problems/conflict");
        assertThat(outcome(responses.get(3))).isEqualTo("RESERVED");
        assertThat(responses.get(3).json().path("stockAfter").asLong()).isEqualTo(7);
        assertThat(book(bookId).path("stock").asLong()).isEqualTo(7);
        assertThat(reservedRows(bookId)).isEqualTo(2);
        assertThat(reserve(repeated, bookId, 2).json())
                .as("a repeat later answers the same")
                .isEqualTo(first.json());
    }

    @Test
    void aBatchThatWaitsTooLongForOneBooksRowHandsEachReservationBackAndTheOthersAreDecidedAlone() throws Exception {
        long held = newBook("batched-held", 5).path("id").asLong();
        long free = newBook("batched-held", 5).path("id").asLong();
        long plugBook = newBook("batched-held", 5).path("id").asLong();
        double handedBackBefore = handedBack("batch-failed");
        List<Response> responses;
        try (Connection holder = database.getConnection()) {
            // A replica frozen inside its transaction on one book, for longer than the lock timeouts.
            holder.setAutoCommit(false);
            try (Statement lock = holder.createStatement()) {
                lock.execute("SET LOCAL idle_in_transaction_session_timeout = 0");
                lock.executeQuery("SELECT id FROM books WHERE id = " + held + " FOR UPDATE")
                        .close();
            }
            List<Long> books = List.of(free, held, free, free);
            responses = queuedBehindAPlug(plugBook, books.size(), i -> reserve(nextOrderId(), books.get(i), 1));
            holder.rollback();
        }

        assertThat(responses.get(1).status()).as("the held book's reservation").isEqualTo(503);
        assertThat(responses.get(1).problemType()).isEqualTo("https://agora.dev/problems/not-applied");
        for (int i : new int[] {0, 2, 3}) assertThat(outcome(responses.get(i))).isEqualTo("RESERVED");
        assertThat(handedBack("batch-failed") - handedBackBefore)
                .as("the failed batch handed all four back")
                .isEqualTo(4);
        assertThat(book(free).path("stock").asLong()).isEqualTo(2);
        assertThat(reservedRows(held)).as("nothing applied").isZero();
        assertThat(outcome(reserve(nextOrderId(), held, 1))).isEqualTo("RESERVED");
    }

    @Test
    void aBatchTellsEachFrontendOfEachBookOnceAndIsAnsweredOnlyOnceTheyHeard() throws Exception {
        long often = newBook("batched-pushes", 10).path("id").asLong();
        long twice = newBook("batched-pushes", 10).path("id").asLong();
        long plugBook = newBook("batched-pushes", 5).path("id").asLong();
        List<Long> books = List.of(often, twice, often, often, twice);
        double transactionsBefore = batches().count();
        List<Response> responses;
        FRONTEND.holdAcknowledgements();
        try (ExecutorService threads = Executors.newFixedThreadPool(books.size() + PLUGS)) {
            Queued queued;
            try {
                queued = queueBehindPlugs(
                        threads, plugBook, books.size(), i -> reserve(nextOrderId(), books.get(i), 1), false);
                // The batch took three copies of one book and two of the other: versions 4 and 3.
                for (FakeFrontend frontend : List.of(FRONTEND, OTHER_FRONTEND)) {
                    awaitPushed(frontend, often, 4);
                    awaitPushed(frontend, twice, 3);
                }

                for (FakeFrontend frontend : List.of(FRONTEND, OTHER_FRONTEND)) {
                    assertThat(versionsPushed(frontend, often))
                            .as("its registration, then one message for the batch's three takes")
                            .containsExactly(1L, 4L);
                    assertThat(versionsPushed(frontend, twice)).containsExactly(1L, 3L);
                }
                assertThat(queued.all())
                        .as("nothing answered while a frontend has not acknowledged")
                        .noneMatch(Future::isDone);
            } finally {
                FRONTEND.releaseAcknowledgements();
            }
            responses = answers(queued.calls());
            for (Response plug : answers(queued.plugs()))
                assertThat(outcome(plug)).isEqualTo("RESERVED");
        }

        assertThat(responses).allSatisfy(r -> assertThat(outcome(r)).as("%s", r).isEqualTo("RESERVED"));
        assertThat(batches().count() - transactionsBefore)
                .as("transactions: the writer's plug, then the batch")
                .isEqualTo(2);
        assertThat(book(often).path("version").asLong()).isEqualTo(4);
        assertThat(book(twice).path("version").asLong()).isEqualTo(3);
    }

    private static void awaitPushed(FakeFrontend frontend, long bookId, long version) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(2))
                .pollInterval(Duration.ofMillis(5))
                .until(() -> versionsPushed(frontend, bookId).contains(version));
    }

    private static List<Long> versionsPushed(FakeFrontend frontend, long bookId) {
        return frontend.receivedFor(bookId).stream()
                .map(r -> r.body().path("version").asLong())
                .toList();
    }

    private List<Response> queuedBehindAPlug(long plugBook, int calls, ReservationTest.Call call) throws Exception {
        return queuedBehindAPlug(plugBook, calls, call, false);
    }

    /** As {@link #queueBehindPlugs}, then waits for every answer; returns the calls' responses in call order. */
    private List<Response> queuedBehindAPlug(long plugBook, int calls, ReservationTest.Call call, boolean inOrder)
            throws Exception {
        try (ExecutorService threads = Executors.newFixedThreadPool(calls + PLUGS)) {
            Queued queued = queueBehindPlugs(threads, plugBook, calls, call, inOrder);
            for (Future<Response> plug : queued.plugs())
                assertThat(outcome(plug.get(30, TimeUnit.SECONDS))).isEqualTo("RESERVED");
            return answers(queued.calls());
        }
    }

    /** The plugs' and the calls' answers to come. */
    private record Queued(List<Future<Response>> plugs, List<Future<Response>> calls) {
        List<Future<Response>> all() {
            List<Future<Response>> all = new ArrayList<>(plugs);
            all.addAll(calls);
            return all;
        }
    }

    /**
     * Holds every connection of the pool but one already taken, sends {@value #PLUGS} plug reservations on {@code
     * threads} (the first two are decided on their own threads, the writer takes the third; all wait for a connection),
     * then the calls,
     * one after another in index order when {@code inOrder}, else all at once; once they all wait for the writer, lets
     * the pool go and returns, the answers still to come.
     */
    private Queued queueBehindPlugs(
            ExecutorService threads, long plugBook, int calls, ReservationTest.Call call, boolean inOrder) {
        List<Connection> held = new ArrayList<>();
        List<Future<Response>> plugs = new ArrayList<>();
        List<Future<Response>> futures = new ArrayList<>();
        try {
            while (database.getHikariPoolMXBean().getTotalConnections() < database.getMaximumPoolSize()
                    || database.getHikariPoolMXBean().getIdleConnections() > 0) {
                held.add(database.getConnection());
            }
            for (int p = 1; p <= PLUGS; p++) {
                int stalled = p;
                plugs.add(threads.submit(() -> reserve(nextOrderId(), plugBook, 1)));
                awaitUntil(() -> database.getHikariPoolMXBean().getThreadsAwaitingConnection() >= stalled);
            }
            for (int i = 0; i < calls; i++) {
                int index = i;
                futures.add(threads.submit(() -> call.run(index)));
                if (inOrder) awaitUntil(() -> waiting() >= index + 1);
            }
            awaitUntil(() -> waiting() >= calls);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        } finally {
            for (Connection connection : held) close(connection);
        }
        return new Queued(plugs, futures);
    }

    private static List<Response> answers(List<Future<Response>> futures) throws Exception {
        List<Response> responses = new ArrayList<>();
        for (Future<Response> future : futures) responses.add(future.get(30, TimeUnit.SECONDS));
        return responses;
    }

    private static void awaitUntil(java.util.concurrent.Callable<Boolean> condition) {
        // Well within the pool's 5 s connection timeout, which would fail the plug's transaction.
        Awaitility.await()
                .atMost(Duration.ofSeconds(3))
                .pollInterval(Duration.ofMillis(5))
                .until(condition);
    }

    private static void close(Connection connection) {
        try {
            connection.close();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private double waiting() {
        return meters.get("agora.reservations.waiting").gauge().value();
    }

    private DistributionSummary batches() {
        return meters.get("agora.reservations.batch").summary();
    }

    private double handedBack(String reason) {
        Counter counter =
                meters.find("agora.reservations.alone").tag("reason", reason).counter();
        return counter == null ? 0 : counter.count();
    }
}
