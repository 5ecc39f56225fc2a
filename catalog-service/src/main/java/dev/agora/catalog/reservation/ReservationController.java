package dev.agora.catalog.reservation;

import dev.agora.common.problem.ProblemException;
import dev.agora.common.problem.ProblemTypes;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.util.ArrayList;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Stock reservations for the order service ({@code /internal/**}: a service token, scope {@code internal}). */
@RestController
@RequestMapping("/internal/reservations")
class ReservationController {

    /** Most copies one order may take; the order service enforces the same bound. */
    static final int MAX_QUANTITY = 1000;

    /** Most orders one read may ask for: a page of the order service. */
    static final int MAX_ORDERS_PER_READ = 100;

    /** Most reservations one batch call may carry: one transaction of the catalog's writer. */
    static final int MAX_PER_BATCH = 64;

    private final ReservingStock reserving;

    ReservationController(ReservingStock reserving) {
        this.reserving = reserving;
    }

    record ReserveStock(
            @NotNull @Positive Long orderId,
            @NotNull @Positive Long bookId,
            @NotNull @Min(1) @Max(MAX_QUANTITY) Integer quantity) {}

    @PostMapping
    Reservation reserve(@Valid @RequestBody ReserveStock request) {
        return answer(reserving.reserve(request.orderId(), request.bookId(), request.quantity()));
    }

    /**
     * What the single call would answer for each request, in order ({@link BatchEntry}), decided together in one
     * transaction; a request the batch hands back is decided alone, as the single call decides it.
     */
    @PostMapping("/batch")
    List<BatchEntry> reserveAll(
            @RequestBody @Size(min = 1, max = MAX_PER_BATCH) List<@NotNull @Valid ReserveStock> requests) {
        List<ReservingStock.Asked> asked = requests.stream()
                .map(r -> new ReservingStock.Asked(r.orderId(), r.bookId(), r.quantity()))
                .toList();
        List<ReservationResult> decided = reserving.decideTogether(asked);
        List<BatchEntry> entries = new ArrayList<>(asked.size());
        for (int i = 0; i < asked.size(); i++) {
            ReservingStock.Asked one = asked.get(i);
            ReservationResult result = decided.get(i);
            entries.add(BatchEntry.of(() -> answer(
                    result != null ? result : reserving.reserveAlone(one.orderId(), one.bookId(), one.quantity()))));
        }
        return entries;
    }

    private static Reservation answer(ReservationResult result) {
        return switch (result) {
            case ReservationResult.Decided(Reservation reservation) -> reservation;
            case ReservationResult.Repeated(Reservation reservation) -> reservation;
            case ReservationResult.UnknownBook(long bookId) ->
                throw ProblemException.notFound("Book " + bookId + " does not exist");
            case ReservationResult.Conflicting(Reservation existing) ->
                throw new ProblemException(
                        HttpStatus.CONFLICT,
                        ProblemTypes.CONFLICT,
                        "Order " + existing.orderId() + " already reserved " + existing.quantity() + " of book "
                                + existing.bookId());
        };
    }

    /** The reservations of those orders that have one, by order id: an order without one is not listed. */
    @GetMapping
    List<Reservation> findAll(
            @RequestParam("orderId") @Size(min = 1, max = MAX_ORDERS_PER_READ) List<@Positive Long> orderIds) {
        return reserving.findAll(orderIds);
    }

    @GetMapping("/{orderId}")
    Reservation find(@PathVariable @Positive long orderId) {
        return reserving
                .find(orderId)
                .orElseThrow(() -> ProblemException.notFound("No reservation for order " + orderId));
    }
}
