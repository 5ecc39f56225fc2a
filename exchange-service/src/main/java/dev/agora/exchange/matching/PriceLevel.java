package dev.agora.exchange.matching;

import java.math.BigDecimal;

/** The orders resting at one price, oldest first, as an intrusive doubly linked list. */
final class PriceLevel {

    final BigDecimal price;
    Order head;
    Order tail;

    PriceLevel(BigDecimal price) {
        this.price = price;
    }

    boolean isEmpty() {
        return head == null;
    }

    void append(Order order) {
        order.level = this;
        order.previous = tail;
        order.next = null;
        if (tail == null) head = order;
        else tail.next = order;
        tail = order;
    }

    void remove(Order order) {
        if (order.previous == null) head = order.next;
        else order.previous.next = order.next;
        if (order.next == null) tail = order.previous;
        else order.next.previous = order.previous;
        order.previous = null;
        order.next = null;
        order.level = null;
    }
}
