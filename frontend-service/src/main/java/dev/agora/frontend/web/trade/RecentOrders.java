package dev.agora.frontend.web.trade;

import jakarta.servlet.http.HttpSession;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The orders a person placed or canceled from the desk in this session, newest first, at most {@value #KEPT}: the
 * exchange lists a person's open orders, and these let the desk also show the ones that have since filled or been
 * canceled. Kept in the session as an immutable list, replaced on every change: sessions are stored in the shared
 * database (Spring Session JDBC), which saves an attribute when it is set, not when an object it holds changes.
 */
final class RecentOrders {

    static final int KEPT = 10;
    private static final String ATTRIBUTE = RecentOrders.class.getName();

    record Ref(String accountId, long orderId) implements Serializable {}

    private RecentOrders() {}

    static List<Ref> of(HttpSession session) {
        return session.getAttribute(ATTRIBUTE) instanceof Kept kept ? kept.refs() : List.of();
    }

    static void add(HttpSession session, String accountId, long orderId) {
        synchronized (session) {
            List<Ref> refs = new ArrayList<>(KEPT + 1);
            refs.add(new Ref(accountId, orderId));
            for (Ref ref : of(session)) {
                if (refs.size() == KEPT) break;
                refs.add(ref);
            }
            session.setAttribute(ATTRIBUTE, new Kept(List.copyOf(refs)));
        }
    }

    /** The list as the session holds it (a record of its own, so a session never holds an anonymous list). */
    record Kept(List<Ref> refs) implements Serializable {}
}
