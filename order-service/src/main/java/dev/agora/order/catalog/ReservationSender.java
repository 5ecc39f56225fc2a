package dev.agora.order.catalog;

import dev.agora.common.batch.GroupCommit;
import dev.agora.common.security.ServiceTokens;
import dev.agora.common.timing.ServerTiming;
import dev.agora.order.catalog.CatalogReservations.BatchEntry;
import dev.agora.order.catalog.CatalogReservations.ReserveStock;
import dev.agora.order.order.Stock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.client.circuitbreaker.CircuitBreaker;
import org.springframework.http.HttpStatus;

/**
 * Group commit ({@link GroupCommit}) of the buys' catalog calls. A buy whose reservation finds fewer than
 * {@value #OWN_CALLS} catalog calls under way (buys' own and this sender's) calls the single endpoint on its own
 * thread, as without batching; one that finds more hands its reservation over and waits: one sender thread takes every
 * reservation waiting (up to {@value #MOST_PER_CALL}) and sends them in one {@code POST /internal/reservations/batch}
 * through the same {@code @LoadBalanced} client, retries and circuit breaker as the single call, while the next ones
 * gather behind that call. The catalog decides them in one transaction, so under load a burst of buys costs one HTTP
 * request and one commit instead of one each. Nothing waits for a timer or for company.
 *
 * <p>An entry the batch does not answer is handed back, and its buy calls the single endpoint itself, exactly as
 * without batching: the call failed or timed out on every replica, the breaker is open, no service token could be had,
 * or the entry is a 503 (nothing applied, or its decision failed). So every failure path (a PENDING order for
 * recovery) stays the single call's. Resending is safe: the catalog reserves at most once per order id. The batch
 * carries no {@code Agora-Frontend} header (its buys came through different frontends), so the catalog answers it
 * only once every frontend heard of its changes.
 *
 * <p>Meters: {@code agora.orders.reservations.waiting} (handed over, not yet sent), {@code
 * agora.orders.reservations.batch} (reservations per batch call; its count is the calls) and {@code
 * agora.orders.reservations.alone} (handed back to the buy's own thread, by reason).
 */
final class ReservationSender implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReservationSender.class);
    static final String THREAD = "catalog-reservation-sender";
    /** The catalog's bound on one batch call. */
    static final int MOST_PER_CALL = 64;
    /** Catalog calls under way below which a buy makes its own (why two: {@link GroupCommit}). */
    static final int OWN_CALLS = 2;
    /** Far more than the request threads can hand over at once; reaching it means the catalog fell behind. */
    static final int BACKLOG = 1_000;

    /** A buy's reservation handed over; its answer is null when the buy is to call the single endpoint itself. */
    private record Ask(ReserveStock stock, CompletableFuture<Stock.Answer> answer) {

        void alone() {
            answer.complete(null);
        }
    }

    private final CatalogReservations catalog;
    private final CircuitBreaker calls;
    private final ServiceTokens tokens;
    private final DistributionSummary batches;
    private final Counter callFailed;
    private final Counter notApplied;
    private final GroupCommit<Ask> sending;

    ReservationSender(CatalogReservations catalog, CircuitBreaker calls, ServiceTokens tokens, MeterRegistry meters) {
        this.catalog = catalog;
        this.calls = calls;
        this.tokens = tokens;
        this.batches = DistributionSummary.builder("agora.orders.reservations.batch")
                .description("Reservations sent to the catalog together in one call (its count: the calls)")
                .baseUnit("reservations")
                .register(meters);
        this.callFailed = alone(meters, "batch-failed");
        this.notApplied = alone(meters, "not-answered");
        // Last: the sender thread may call send() at once, and it reads the fields above.
        this.sending = new GroupCommit<>(
                THREAD,
                MOST_PER_CALL,
                OWN_CALLS,
                BACKLOG,
                this::send,
                Ask::alone,
                alone(meters, "backlog-full"),
                meters,
                "agora.orders.reservations");
    }

    private static Counter alone(MeterRegistry meters, String reason) {
        return Counter.builder("agora.orders.reservations.alone")
                .description("Reservations handed back to the buy's own thread, which calls the single endpoint")
                .tag("reason", reason)
                .register(meters);
    }

    /**
     * The catalog's answer: {@code single} on this thread, or the batch call's answer, or {@code single} after all when
     * the batch left it unanswered ({@link GroupCommit#write}).
     */
    Stock.Answer reserve(ReserveStock stock, Supplier<Stock.Answer> single) {
        // A batch call's answer is timed as the buy's catalog call, which it stands for.
        return sending.write(
                new Ask(stock, new CompletableFuture<>()),
                single,
                ask -> ServerTiming.measure(
                        CatalogStock.TIMING_NAME, () -> ask.answer().join()));
    }

    /** The sender thread's call; what it leaves unanswered GroupCommit hands back to the buys' own threads. */
    private void send(List<Ask> batch) {
        batches.record(batch.size());
        String authorization;
        try {
            authorization = "Bearer " + tokens.bearer();
        } catch (RuntimeException e) {
            log.warn("No service token to send a batch of {} reservations: {}", batch.size(), e.getMessage());
            callFailed.increment(batch.size());
            return;
        }
        List<ReserveStock> stocks = batch.stream().map(Ask::stock).toList();
        List<BatchEntry> entries = calls.run(() -> catalog.reserveAll(authorization, stocks), failed(batch.size()));
        if (entries == null || entries.size() != batch.size()) {
            if (entries != null) log.warn("The catalog answered {} of a batch of {}", entries.size(), batch.size());
            callFailed.increment(batch.size());
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            Ask ask = batch.get(i);
            Stock.Answer answer = answer(ask.stock().orderId(), entries.get(i));
            if (answer == null) notApplied.increment();
            else ask.answer().complete(answer);
        }
    }

    private static Function<Throwable, List<BatchEntry>> failed(int size) {
        return failed -> {
            log.warn(
                    "A batch of {} reservations got no answer from the catalog, each is sent alone: {}",
                    size,
                    failed.toString());
            return null;
        };
    }

    /** What the single call's answer would mean; null for an entry the buy must send again itself. */
    private static Stock.Answer answer(long orderId, BatchEntry entry) {
        if (entry.status() == HttpStatus.OK.value() && entry.reservation() != null) {
            return CatalogStock.answer(entry.reservation());
        }
        return CatalogStock.refusal(orderId, entry.status());
    }

    /** Stops taking reservations; the call under way is answered, anything left is handed back. */
    @Override
    public void close() throws InterruptedException {
        sending.close();
    }
}
