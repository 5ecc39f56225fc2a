package dev.agora.order.order;

import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Service;

/**
 * Reads orders as their buyers were answered. A buy is answered before its outcome is written
 * ({@link OutcomeWriter}), so a PENDING row may belong to a buy that is already decided: a read settles it from
 * the catalog's reservation and writes it. Without a reservation the order really is still PENDING.
 */
@Service
class FindingOrder {

    private final Orders orders;
    private final Stock stock;
    private final PlacingOrder placing;

    FindingOrder(Orders orders, Stock stock, PlacingOrder placing) {
        this.orders = orders;
        this.stock = stock;
        this.placing = placing;
    }

    Optional<Order> find(long orderId) {
        return orders.find(orderId).map(new Settling()::settled);
    }

    /** Newest first, each order settled as in {@link #find}. */
    List<Order> page(int page, int size) {
        Settling settling = new Settling();
        return orders.page(page, size).stream().map(settling::settled).toList();
    }

    /**
     * Settles the PENDING orders of one read. Once the catalog could not be asked, it is not asked again in the
     * same read: a page costs at most one failed call while the catalog is away.
     */
    private final class Settling {

        private boolean catalogAway;

        Order settled(Order order) {
            if (!order.isPending() || catalogAway) return order;
            Optional<Stock.Answer> decision = stock.decided(order.id());
            catalogAway = decision.orElse(null) instanceof Stock.Unavailable;
            return decision.map(decided -> placing.settle(order, decided)).orElse(order);
        }
    }
}
