package dev.agora.exchange.matching;

import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Every order by id. Ids come from one sequence starting at 1 and a rejected order takes none, so the ids
 * are dense and an array indexed by id beats a hash map (no boxing, no hashing) on the hot path.
 */
final class OrderIndex implements Iterable<Order> {

    private Order[] byId = new Order[1 << 16];
    private int highest;

    void add(Order order) {
        long id = order.id();
        if (id >= Integer.MAX_VALUE - 8) throw new IllegalStateException("order id space exhausted");
        int index = (int) id;
        if (index >= byId.length) byId = Arrays.copyOf(byId, Math.max(index + 1, byId.length * 2));
        byId[index] = order;
        highest = Math.max(highest, index);
    }

    Order get(long id) {
        return id > 0 && id <= highest ? byId[(int) id] : null;
    }

    @Override
    public Iterator<Order> iterator() {
        return new Iterator<>() {
            private int next = advance(1);

            private int advance(int from) {
                int i = from;
                while (i <= highest && byId[i] == null) i++;
                return i;
            }

            @Override
            public boolean hasNext() {
                return next <= highest;
            }

            @Override
            public Order next() {
                if (!hasNext()) throw new NoSuchElementException();
                Order order = byId[next];
                next = advance(next + 1);
                return order;
            }
        };
    }
}
