package dev.agora.frontend.web.trade;

import jakarta.servlet.http.HttpSession;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The orders a person placed from the desk in this session, newest first, at most {@value #KEPT}: the exchange lists
 * a person's open orders, and these let the desk also show the ones that have since filled or been canceled.
 */
final class RecentOrders {

    static final int KEPT = 10;
    private static final String ATTRIBUTE = RecentOrders.class.getName();

    record Ref(String accountId, long orderId) {}

    private final Deque<Ref> refs = new ArrayDeque<>();

    static RecentOrders of(HttpSession session) {
        synchronized (session) {
            Object kept = session.getAttribute(ATTRIBUTE);
            if (kept instanceof RecentOrders recent) return recent;
            RecentOrders recent = new RecentOrders();
            session.setAttribute(ATTRIBUTE, recent);
            return recent;
        }
    }

    synchronized void add(String accountId, long orderId) {
        refs.addFirst(new Ref(accountId, orderId));
        while (refs.size() > KEPT) refs.removeLast();
    }

    synchronized List<Ref> list() {
        return List.copyOf(refs);
    }
}
