package dev.agora.order.order;

import dev.agora.common.problem.ProblemException;
import dev.agora.common.problem.ProblemTypes;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.net.URI;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Buys and reads of orders. Who may call is in {@code OrderAccessRules}; whose orders a caller sees is decided
 * here: a buyer's own ({@link Requester}), every order for an admin.
 */
@RestController
@RequestMapping("/orders")
class OrderController {

    static final URI KEY_REUSED = ProblemTypes.of("idempotency-key-reused");

    private final PlacingOrder placing;
    private final FindingOrder finding;

    OrderController(PlacingOrder placing, FindingOrder finding) {
        this.placing = placing;
        this.finding = finding;
    }

    record PlaceOrder(@NotNull @Positive Long bookId, @NotNull @Min(1) @Max(1000) Integer quantity) {}

    record OrderPage(List<OrderView> content, int page, int size, long totalElements) {}

    /**
     * 201 with the order when confirmed; a problem carrying {@code orderId} otherwise. A repeat with the same
     * key by the same buyer answers the same way for the same order; another buyer's key of the same value is
     * another order. A customer's order is theirs; a service's (a frontend's anonymous classic buy) has no owner.
     */
    @PostMapping
    ResponseEntity<OrderView> place(
            @RequestHeader("Idempotency-Key") @NotBlank @Size(max = 100) String idempotencyKey,
            @Valid @RequestBody PlaceOrder request) {
        return switch (placing.place(
                Requester.current().owner(), idempotencyKey, request.bookId(), request.quantity())) {
            case PlacingOrder.Placed(Order order) -> answer(order);
            case PlacingOrder.KeyReused(Order existing) ->
                throw problem(
                        HttpStatus.UNPROCESSABLE_CONTENT,
                        KEY_REUSED,
                        "Idempotency-Key was already used for a different order",
                        existing);
        };
    }

    /** The caller's own order, or any order for an admin; another buyer's order is 403. */
    @GetMapping("/{orderId}")
    OrderView find(@PathVariable @Positive long orderId) {
        return switch (finding.find(orderId, Requester.current())) {
            case FindingOrder.Found(Order order) -> OrderView.of(order);
            case FindingOrder.Missing ignored ->
                throw ProblemException.notFound("Order " + orderId + " does not exist");
            case FindingOrder.NotTheirs ignored ->
                throw new ProblemException(
                        HttpStatus.FORBIDDEN, ProblemTypes.FORBIDDEN, "Order " + orderId + " is not the caller's");
        };
    }

    /** The caller's own orders, newest first ({@code totalElements} counts only those); an admin's page has all. */
    @GetMapping
    OrderPage list(
            @RequestParam(defaultValue = "0") @Min(0) @Max(100_000) int page,
            // A page's PENDING orders are settled with one read at the catalog, which takes that many at most.
            @RequestParam(defaultValue = "20") @Min(1) @Max(Stock.MAX_ORDERS_PER_READ) int size) {
        FindingOrder.Page read = finding.page(Requester.current(), page, size);
        List<OrderView> content = read.orders().stream().map(OrderView::of).toList();
        return new OrderPage(content, page, size, read.total());
    }

    private static ResponseEntity<OrderView> answer(Order order) {
        return switch (order.status()) {
            case CONFIRMED ->
                ResponseEntity.created(URI.create("/orders/" + order.id())).body(OrderView.of(order));
            case PENDING ->
                throw problem(
                        HttpStatus.SERVICE_UNAVAILABLE,
                        ProblemTypes.SERVICE_UNAVAILABLE,
                        "The catalog could not be reached; the order stays PENDING and is completed in the"
                                + " background. Retry with the same Idempotency-Key to learn the outcome.",
                        order);
            case REJECTED ->
                throw switch (order.rejection()) {
                    case OUT_OF_STOCK ->
                        problem(
                                HttpStatus.CONFLICT,
                                ProblemTypes.OUT_OF_STOCK,
                                "Not enough copies of book " + order.bookId(),
                                order);
                    case UNKNOWN_BOOK ->
                        problem(
                                HttpStatus.NOT_FOUND,
                                ProblemTypes.NOT_FOUND,
                                "Book " + order.bookId() + " does not exist",
                                order);
                    case RESERVATION_CONFLICT ->
                        problem(
                                HttpStatus.CONFLICT,
                                ProblemTypes.CONFLICT,
                                "The catalog holds a different reservation for this order",
                                order);
                };
        };
    }

    private static ProblemException problem(HttpStatus status, URI type, String detail, Order order) {
        ProblemException problem = new ProblemException(status, type, detail);
        problem.getBody().setProperty("orderId", order.id());
        problem.getBody().setProperty("orderStatus", order.status().name());
        return problem;
    }
}
