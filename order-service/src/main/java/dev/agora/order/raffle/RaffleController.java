package dev.agora.order.raffle;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The raffle's winners, public (any valid token here; the frontend serves them to anyone at
 * {@code /api/raffle/winners}). They carry no buyer: a winner is shown by order, book and refund only.
 */
@RestController
class RaffleController {

    private final Winners winners;

    RaffleController(Winners winners) {
        this.winners = winners;
    }

    record WinnerPage(List<Winners.Winner> content, int page, int size, long totalElements) {}

    /** Winners in the order they won (position 100, 200, ...), a page at a time. */
    @GetMapping("/raffle/winners")
    WinnerPage winners(
            @RequestParam(defaultValue = "0") @Min(0) @Max(100_000) int page,
            @RequestParam(defaultValue = "100") @Min(1) @Max(1000) int size) {
        return new WinnerPage(winners.page(page, size), page, size, winners.count());
    }
}
