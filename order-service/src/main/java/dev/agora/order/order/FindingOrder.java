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
        return orders.find(orderId).map(order -> settled(List.of(order)).getFirst());
    }

    /** Newest first, each order settled as in {@link #find}. */
    List<Order> page(int page, int size) {
        return settled(orders.page(page, size));
    }

    /**
     * Settles the PENDING orders of one read with one call to the catalog, so a read costs one call whatever the
     * number of its PENDING orders (at most a page), and at most one failed call while the catalog is away.
     */
    private List<Order> settled(List<Order> read) {
        List<Long> pending =
                read.stream().filter(Order::isPending).map(Order::id).toList();
        if (pending.isEmpty()) return read;
        return switch (stock.decided(pending)) {
            case Stock.Known(var decisions) ->
                read.stream()
                        .map(order -> decisions.containsKey(order.id())
                                ? placing.settle(order, decisions.get(order.id()))
                                : order)
                        .toList();
            case Stock.NotKnown ignored -> read;
        };
    }
}
