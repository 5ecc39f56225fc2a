package dev.agora.exchange.store;

import java.sql.Connection;
import java.util.List;
import org.hibernate.SessionFactory;
import org.hibernate.StatelessSession;
import org.hibernate.Transaction;

/**
 * The batch through Hibernate: a {@link StatelessSession} on the lease holder's own connection (no persistence
 * context, no dirty checking: the engine already knows exactly which rows changed), each table's new rows and changed
 * rows sent as one JDBC batch ({@code insertMultiple}, {@code updateMultiple}), tables in a fixed order, then the
 * fence, then the commit. An update writes only the columns that can change ({@code updatable = false} on the
 * others). One transaction per batch as with the JDBC writer, but a round trip per non-empty part plus the fence and
 * the commit, where the JDBC writer's single statement is one.
 */
final class HibernateBatchWriter implements BatchWriter {

    private static final String FENCE = "select leader_fence(:lease, :epoch)";

    private final StatelessSession session;

    HibernateBatchWriter(SessionFactory sessions, Connection connection) {
        this.session = sessions.withStatelessOptions().connection(connection).openStatelessSession();
    }

    @Override
    public void write(ExchangeStore.Snapshot rows, String lease, long epoch) {
        Transaction transaction = session.beginTransaction();
        try {
            insert(rows.openedAccounts);
            update(rows.accounts);
            insert(rows.openedPositions);
            update(rows.positions);
            insert(rows.placedOrders);
            update(rows.orders);
            insert(rows.executions);
            // Last before the commit, as leader_fence asks: it holds the lease row until the commit, so a takeover
            // waits for this batch, or this batch fails because a takeover came first.
            session.createNativeQuery(FENCE, Boolean.class)
                    .setParameter("lease", lease)
                    .setParameter("epoch", epoch)
                    .getSingleResult();
            transaction.commit();
        } catch (RuntimeException e) {
            try {
                if (transaction.isActive()) transaction.rollback();
            } catch (RuntimeException rollbackFailed) {
                e.addSuppressed(rollbackFailed);
            }
            throw e;
        }
    }

    private void insert(List<?> rows) {
        if (!rows.isEmpty()) session.insertMultiple(rows);
    }

    private void update(List<?> rows) {
        if (!rows.isEmpty()) session.updateMultiple(rows);
    }

    @Override
    public void close() {
        session.close();
    }
}
