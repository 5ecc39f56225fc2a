package dev.agora.exchange.store;

import dev.agora.exchange.matching.MatchingEngine;
import dev.agora.exchange.matching.MemoryLimits;
import dev.agora.exchange.matching.Order;
import dev.agora.exchange.store.leader.LeaderLease;
import dev.agora.exchange.store.leader.Leadership;
import dev.agora.exchange.store.leader.LeaseSettings;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.jpa.repository.support.JpaRepositoryFactory;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.orm.jpa.SharedEntityManagerCreator;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * PostgreSQL, the exchange's truth. The right to write is a lease ({@link Leadership}, common's
 * {@code dev.agora.exchange.store.leader}): an instance waits in {@link #acquireLeadership} until it holds the lease
 * {@code exchange}, and every batch it commits carries the lease's epoch into the same transaction
 * ({@code leader_fence}), so a former leader (frozen, then thawed after a standby took over) cannot commit anything:
 * its transaction fails, and the lease's listener makes the sequencer stand by. A takeover waits for a fenced batch in
 * flight, so what the successor loads includes every batch its predecessor committed.
 *
 * <p>The tables are JPA entities ({@link AccountRow}, {@link PositionRow}, {@link OrderRow}, {@link ExecutionRow}).
 * Start-up and takeover read them through Spring Data repositories, in one read-only transaction. A batch is committed
 * in two steps so that the sequencer never waits for the database: {@link #snapshot} copies the changed rows' current
 * values into rows (on the sequencer thread, which owns the engine), and {@link #commit(Snapshot)} writes them as one
 * transaction and waits for the durable commit (on the committer thread, the only user of the lease holder's session
 * while the sequencer is active), through the {@link JdbcBatchWriter}: one statement per batch, fence included.
 *
 * <p>The data source must hand out real, unpooled connections: the lease is freed at once when its holder's session
 * ends, which a pool would keep alive.
 */
public final class ExchangeStore implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ExchangeStore.class);

    /** Rows fetched per round trip while loading (repositories' query hints). */
    static final String FETCH_SIZE = "10000";

    /** Rounds of {@link #rehearseWhileStandingBy} at most, and the pause between two. */
    private static final int REHEARSALS = 200;

    private static final long REHEARSAL_PAUSE_MILLIS = 50;

    /** Loaded rows kept in the loading persistence context at most: it is cleared after this many. */
    private static final int CLEAR_EVERY = 10_000;

    private final DataSource dataSource;
    private final Leadership leadership;
    private final TransactionTemplate readOnly;
    private final EntityManager entityManager;
    private final AccountRows accountRows;
    private final PositionRows positionRows;
    private final OrderRows orderRows;
    private final ExecutionRows executionRows;
    private Connection connection;
    private JdbcBatchWriter writer;
    /** Rehearses the load and commit path while standing by ({@link #rehearseWhileStandingBy}); null before. */
    private Thread rehearsing;
    /** The lease's epoch this instance's batches are fenced with; 0 while it holds none. */
    private volatile long epoch;

    /**
     * @param dataSource unpooled connections: the lease's session and the batches' session
     * @param entities the exchange's persistence unit (the entities of this package); loads use its own connections
     */
    public ExchangeStore(DataSource dataSource, EntityManagerFactory entities, LeaseSettings lease) {
        this.dataSource = dataSource;
        this.leadership = new Leadership(dataSource, lease, Leadership.holderName("exchange"));
        if (entities == null) { // a store that is never started (tests of other parts)
            this.readOnly = null;
            this.entityManager = null;
            this.accountRows = null;
            this.positionRows = null;
            this.orderRows = null;
            this.executionRows = null;
            return;
        }
        this.readOnly = new TransactionTemplate(new JpaTransactionManager(entities));
        readOnly.setReadOnly(true);
        // Made once, here, so that their queries are parsed and checked before a takeover needs them.
        this.entityManager = SharedEntityManagerCreator.createSharedEntityManager(entities);
        JpaRepositoryFactory repositories = new JpaRepositoryFactory(entityManager);
        this.accountRows = repositories.getRepository(AccountRows.class);
        this.positionRows = repositories.getRepository(PositionRows.class);
        this.orderRows = repositories.getRepository(OrderRows.class);
        this.executionRows = repositories.getRepository(ExecutionRows.class);
    }

    /** The election this store's writes are fenced by. */
    public Leadership leadership() {
        return leadership;
    }

    /** This instance holds the lease and may be sure of it (false at once after a thawed freeze). */
    public boolean leads() {
        return leadership.isLeader();
    }

    /** Runs {@code listener} (on the election's thread) when the lease is lost without a failed write telling. */
    public void whenLeadershipLost(Runnable listener) {
        leadership.addListener(new Leadership.Listener() {
            @Override
            public void revoked(long lostEpoch, String why) {
                listener.run();
            }
        });
    }

    /**
     * Blocks until this instance holds the exchange's lease (a standby waits here while another instance is
     * active), then opens the session its batches are written through.
     *
     * @return false when {@code keepTrying} said stop before the lease was taken
     */
    public boolean acquireLeadership(BooleanSupplier keepTrying) throws InterruptedException {
        release();
        leadership.start();
        rehearseWhileStandingBy();
        long held = leadership.awaitLeadership(keepTrying);
        if (held == 0) return false;
        Connection candidate = null;
        try {
            candidate = dataSource.getConnection();
            candidate.setAutoCommit(true);
            // A database that stops answering mid-commit (a link cut between this instance and PostgreSQL) must not
            // hold the committer for good: the lease runs out meanwhile, and this instance can only stand by again
            // (closing its XML port) once the commit in flight has ended, one way or the other.
            candidate.setNetworkTimeout(Runnable::run, commitTimeoutMillis());
            planOnce(candidate);
            writer = new JdbcBatchWriter(candidate);
            connection = candidate;
            candidate = null;
            epoch = held;
            log.info("Exchange lease taken at epoch {}: this instance is active", held);
            return true;
        } catch (SQLException | RuntimeException e) {
            throw new StoreUnavailableException("Could not open the exchange's session", e);
        } finally {
            if (candidate != null) closeQuietly(candidate);
        }
    }

    /**
     * How long a batch's statements may wait for the database before the commit counts as failed (and the state is
     * rebuilt): ten leases, at least five seconds. A commit that slow has outlived the lease it was fenced with
     * anyway, so waiting longer only keeps a deposed leader from standing by.
     */
    int commitTimeoutMillis() {
        return (int) Math.max(5_000, 10 * leadership.settings().ttl().toMillis());
    }

    /**
     * The batch statements' plans do not depend on their values, but PostgreSQL would plan them anew for every batch
     * (a custom plan per execution looks cheaper to it than the generic one): planning was a large part of the
     * database's CPU per batch. A generic plan is made once per connection.
     */
    private static void planOnce(Connection candidate) throws SQLException {
        try (var statement = candidate.createStatement()) {
            statement.execute("SET plan_cache_mode = force_generic_plan");
        }
    }

    /**
     * Runs what a takeover will run while this instance waits for the lease, so that a standby does not pay for a cold
     * JVM when it takes over: the first loads through the repositories (Hibernate translating and executing its
     * queries for the first time, Spring Data's and the transaction's code paths run interpreted) took seconds on a
     * busy small machine, longer than a takeover may take. A round reads at most one fetch of each table and keeps
     * nothing. Rounds stop as soon as this instance leads, so they never take a core
     * from a new leader, and after {@link #REHEARSALS} of them.
     */
    private void rehearseWhileStandingBy() {
        if (rehearsing != null || readOnly == null) return;
        rehearsing = Thread.ofPlatform().daemon().name("exchange-rehearsal").start(() -> {
            long started = System.nanoTime();
            int rounds = 0;
            try {
                while (rounds < REHEARSALS
                        && !leadership.isLeader()
                        && !Thread.currentThread().isInterrupted()) {
                    rehearseOnce();
                    rounds++;
                    Thread.sleep(REHEARSAL_PAUSE_MILLIS);
                }
                log.info(
                        "Load and commit path rehearsed {} times in {} ms",
                        rounds,
                        (System.nanoTime() - started) / 1_000_000);
            } catch (InterruptedException stopped) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                log.warn("Rehearsing the load and commit path failed (a takeover will be slower): {}", e.toString());
            }
        });
    }

    private void rehearseOnce() throws Exception {
        read(() -> 0, MemoryLimits.DEFAULT, true);
    }

    /**
     * Rebuilds the engine's state from the tables, through the repositories in one read-only transaction: accounts,
     * positions, the open orders (through the partial index of V6, so the time does not grow with the number of closed
     * orders), the latest idempotency keys and where the id sequences stand. Closed orders and executions stay in the
     * database ({@link JdbcStoredOrders} reads them when asked for). Loaded rows are read-only and the persistence
     * context is cleared as they stream by, so loading holds no more than a fetch of rows besides the engine.
     */
    public MatchingEngine load(LongSupplier epochSeconds, MemoryLimits limits) {
        return read(epochSeconds, limits, false);
    }

    /** The load; a rehearsal reads only the first row of each table and a single key. */
    private MatchingEngine read(LongSupplier epochSeconds, MemoryLimits limits, boolean rehearsal) {
        long started = System.nanoTime();
        int[] openOrders = {0};
        MatchingEngine engine;
        try {
            engine = readOnly.execute(status -> {
                MatchingEngine loaded = new MatchingEngine(epochSeconds, limits);
                try (Stream<AccountRow> rows = first(accountRows.streamAll(), rehearsal)) {
                    each(rows, row -> loaded.restoreAccount(row.id, row.balance, row.owner));
                }
                try (Stream<PositionRow> rows = first(positionRows.streamAll(), rehearsal)) {
                    each(rows, row -> loaded.restorePosition(row.accountId, row.symbol, row.shares));
                }
                try (Stream<OrderRow> rows = first(orderRows.streamOpen(), rehearsal)) {
                    openOrders[0] = each(
                            rows,
                            row -> loaded.restoreOpenOrder(
                                    row.id, row.accountId, row.symbol, row.amount, row.limitPrice, row.openShares));
                }
                // Oldest first, so that a placement repeated to this instance after its predecessor placed it (and
                // lost the answer) names that order.
                List<OrderRows.OrderKey> keys =
                        orderRows.latestKeys(PageRequest.ofSize(rehearsal ? 1 : MatchingEngine.ORDER_KEYS_KEPT));
                for (OrderRows.OrderKey key : keys.reversed()) {
                    loaded.restoreOrderKey(key.accountId(), key.clientKey(), key.orderId());
                }
                loaded.restoreSequences(orderRows.lastId(), executionRows.lastId());
                return loaded;
            });
        } catch (RuntimeException e) {
            throw new StoreUnavailableException("Could not load the exchange state", e);
        }
        if (rehearsal) return engine;
        log.info(
                "Exchange state loaded: {} open orders in {} ms; next order id {}",
                openOrders[0],
                (System.nanoTime() - started) / 1_000_000,
                engine.nextOrderId());
        return engine;
    }

    private static <T> Stream<T> first(Stream<T> rows, boolean only) {
        return only ? rows.limit(1) : rows;
    }

    /** Restores every row; returns how many there were. */
    private <T> int each(Stream<T> rows, Consumer<T> restore) {
        int[] seen = {0};
        rows.forEach(row -> {
            restore.accept(row);
            if (++seen[0] % CLEAR_EVERY == 0) entityManager.clear();
        });
        return seen[0];
    }

    /** The rows a batch changed, copied out of the engine: never changed after, any thread may write them. */
    public static final class Snapshot {
        final List<AccountRow> openedAccounts;
        final List<AccountRow> accounts;
        final List<PositionRow> openedPositions;
        final List<PositionRow> positions;
        final List<OrderRow> placedOrders;
        final List<OrderRow> orders;
        final List<ExecutionRow> executions;

        private Snapshot(ChangeSet changes) {
            openedAccounts = rows(changes.openedAccounts, a -> new AccountRow(a.id(), a.balance(), a.owner()));
            // The owner never changes: an update writes the balance alone.
            accounts = rows(changes.accounts, a -> new AccountRow(a.id(), a.balance(), null));
            openedPositions = rows(changes.openedPositions, Snapshot::position);
            positions = rows(changes.positions, Snapshot::position);
            placedOrders = rows(
                    changes.placedOrders,
                    o -> new OrderRow(
                            o.id(),
                            o.accountId(),
                            o.symbol(),
                            o.amount(),
                            o.limit(),
                            o.open(),
                            o.canceledShares(),
                            canceledAt(o),
                            o.clientKey()));
            orders = rows(changes.orders, o -> OrderRow.progress(o.id(), o.open(), o.canceledShares(), canceledAt(o)));
            executions = rows(
                    changes.executions,
                    e -> new ExecutionRow(
                            e.id(), e.buyOrderId(), e.sellOrderId(), e.symbol(), e.shares(), e.price(), e.time()));
        }

        private boolean isEmpty() {
            return openedAccounts.isEmpty()
                    && accounts.isEmpty()
                    && openedPositions.isEmpty()
                    && positions.isEmpty()
                    && placedOrders.isEmpty()
                    && orders.isEmpty()
                    && executions.isEmpty();
        }

        private static PositionRow position(ChangeSet.PositionKey position) {
            return new PositionRow(
                    position.account().id(),
                    position.symbol(),
                    position.account().shares(position.symbol()));
        }

        private static Long canceledAt(Order order) {
            return order.canceledShares() == null ? null : order.canceledAt();
        }

        private static <S, R> List<R> rows(Collection<S> changed, Function<S, R> row) {
            if (changed.isEmpty()) return List.of();
            List<R> rows = new ArrayList<>(changed.size());
            for (S each : changed) rows.add(row.apply(each));
            return rows;
        }
    }

    /** Copies the current values of the rows the change set names (on the thread that owns the engine). */
    public static Snapshot snapshot(ChangeSet changes) {
        return new Snapshot(changes);
    }

    /** Writes a snapshot's rows in one transaction and returns once the commit is durable. */
    public void commit(Snapshot snapshot) {
        if (snapshot.isEmpty()) return; // no row touched: there is nothing to send
        long fencedWith = epoch;
        try {
            writer.write(snapshot, leadership.name(), fencedWith);
        } catch (Exception e) {
            if (LeaderLease.isFenced(e)) {
                leadership.deposed(fencedWith, "a batch was refused: another instance took the lease over");
                throw new StoreUnavailableException(
                        "Not committed: leadership at epoch " + fencedWith + " has passed", e);
            }
            // Whether the statement committed is unknown: a session that timed out or broke does not stop PostgreSQL
            // from running it, and it may still commit under this epoch. An engine rebuilt under the same epoch would
            // load the tables without it and then overwrite what it wrote (balances are written as values, not
            // deltas). Giving the epoch up means the next takeover, this instance's own included, waits for that
            // statement (its fence holds the lease's row) or fences it off, so a load after it includes it or it
            // never lands.
            leadership.deposed(fencedWith, "the outcome of a batch is unknown (" + e.getMessage() + ")");
            throw new StoreUnavailableException("Could not commit a batch", e);
        }
    }

    /** Closes the session batches are written through (the lease stays with the election). */
    public void release() {
        epoch = 0;
        if (writer != null) {
            try {
                writer.close();
            } catch (RuntimeException e) {
                log.debug("Closing the batch writer failed", e);
            }
            writer = null;
        }
        if (connection == null) return;
        closeQuietly(connection);
        connection = null;
    }

    /** Closes the session and gives the lease up, so that a standby takes over without waiting for it to expire. */
    @Override
    public void close() {
        if (rehearsing != null) rehearsing.interrupt();
        release();
        leadership.close();
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException e) {
            log.debug("Closing an exchange connection failed", e);
        }
    }
}
