package dev.agora.order.order;

import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Service;

/**
 * Reads orders as their buyers were answered, for those who may see them: the buyer their own, an admin every
 * order. A buy is answered before its outcome is written ({@link OutcomeWriter}), so a PENDING row may belong to
 * a buy that is already decided: a read settles it from the catalog's reservation and writes it. Without a
 * reservation the order really is still PENDING. Only orders the reader may see are settled.
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

    sealed interface Lookup {}

    record Found(Order order) implements Lookup {}

    record Missing() implements Lookup {}

    /** The order exists and is another buyer's; nothing was done with it. */
    record NotTheirs() implements Lookup {}

    Lookup find(long orderId, Requester reader) {
        Optional<Order> order = orders.find(orderId);
        if (order.isEmpty()) return new Missing();
        if (!reader.mayRead(order.get())) return new NotTheirs();
        return new Found(settled(List.of(order.get())).getFirst());
    }

    /** One page of the orders the reader may see, and how many they are in all. */
    record Page(List<Order> orders, long total) {}

    /** Newest first, each order settled as in {@link #find}: an admin's of all orders, anyone else's of their own. */
    Page page(Requester reader, int page, int size) {
        if (reader.admin()) return new Page(settled(orders.page(page, size)), orders.count());
        if (reader.owner().isEmpty()) return new Page(List.of(), 0);
        String owner = reader.owner().get();
        return new Page(settled(orders.pageOf(owner, page, size)), orders.countOf(owner));
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
