package dev.agora.exchange.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.exchange.matching.Account;
import dev.agora.exchange.matching.MatchingEngine;
import dev.agora.exchange.matching.MemoryLimits;
import dev.agora.exchange.matching.Order;
import dev.agora.exchange.matching.OrderSnapshot;
import dev.agora.exchange.matching.Result;
import dev.agora.exchange.matching.StoredResults;
import dev.agora.exchange.support.FreshSchema;
import dev.agora.exchange.support.InTestExchange;
import dev.agora.exchange.support.TestStores;
import dev.agora.local.postgres.PostgresServer;
import dev.agora.local.postgres.SharedPostgres;
import jakarta.persistence.EntityManagerFactory;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The store writes new rows as inserts and changed rows as updates, so it relies on the change set telling the
 * two apart: an update of a row that was never inserted would write nothing. Random batches of every command,
 * committed one by one, must leave tables from which an engine is rebuilt exactly as the live one stands.
 */
class ExchangeStoreTest {

    private static final String[] SYMBOLS = {"A", "B", "C"};

    private final PostgresServer postgres = SharedPostgres.get();
    private final String url = postgres.jdbcUrl("exchange_store");
    private DriverManagerDataSource dataSource;
    private EntityManagerFactory entities;
    private ExchangeStore store;

    @BeforeEach
    void start() throws Exception {
        FreshSchema.migrate(postgres, url);
        dataSource = new DriverManagerDataSource(url, postgres.username(), postgres.password());
        entities = TestStores.entities(dataSource);
        store = TestStores.store(dataSource, entities, InTestExchange.LEASE);
        assertThat(store.acquireLeadership(() -> true)).isTrue();
    }

    @AfterEach
    void stop() {
        store.close();
        entities.close();
    }

    @Test
    void theTablesHoldExactlyTheEngineStateAfterRandomBatches() {
        MatchingEngine engine = store.load(() -> 1_700_000_000L, MemoryLimits.DEFAULT);
        int accounts = commitRandomBatches(engine, store);

        // The rebuilt engine holds only the open orders (their executions stay in the database); the live one still
        // holds every order it saw (fewer than it keeps). Every order answers the same from both: from memory in the
        // live engine, from the tables in the rebuilt one.
        MatchingEngine rebuilt = store.load(() -> 1_700_000_000L, MemoryLimits.DEFAULT);
        StoredResults stored = new StoredResults(new JdbcStoredOrders(dataSource), 1_000);

        assertThat(accountsOf(rebuilt)).isEqualTo(accountsOf(engine)).hasSize(accounts);
        assertThat(accountsOf(engine).values())
                .anyMatch(account -> account.startsWith("null "))
                .anyMatch(account -> account.startsWith("user."));
        assertThat(rebuilt.nextOrderId()).isEqualTo(engine.nextOrderId());
        assertThat(ids(rebuilt.openOrders()))
                .isEqualTo(ids(engine.openOrders()))
                .isNotEmpty();
        Map<Long, OrderSnapshot> live = ordersOf(engine, stored);
        assertThat(live).hasSize((int) engine.nextOrderId() - 1);
        assertThat(ordersOf(rebuilt, stored)).isEqualTo(live);
        assertThat(live.values()).anyMatch(order -> order.canceled() != null);
        assertThat(live.values()).anyMatch(order -> !order.executions().isEmpty() && order.open() == null);
        assertThat(live.values()).anyMatch(order -> !order.executions().isEmpty() && order.open() != null);
        assertThat(integrityViolations()).isEmpty();
    }

    /** 150 random batches of every command, each committed through {@code store}; returns the accounts created. */
    private static int commitRandomBatches(MatchingEngine engine, ExchangeStore store) {
        ChangeSet changes = new ChangeSet();
        engine.reportChangesTo(changes);
        Random random = new Random(6);
        int accounts = 0;
        for (int batch = 0; batch < 150; batch++) {
            int commands = 1 + random.nextInt(12);
            for (int c = 0; c < commands; c++) {
                int kind = random.nextInt(10);
                if (kind == 0 || accounts < 4) {
                    // Some owned (created over REST), some not (over XML).
                    String id = Integer.toString(++accounts);
                    engine.createAccount(
                            id,
                            new BigDecimal(random.nextInt(5_000) + ".5"),
                            random.nextBoolean() ? null : "user." + id + "@agora");
                } else {
                    String account = Integer.toString(1 + random.nextInt(accounts));
                    String symbol = SYMBOLS[random.nextInt(SYMBOLS.length)];
                    if (kind == 1) {
                        engine.addShares(symbol, account, BigDecimal.valueOf(1 + random.nextInt(50)));
                    } else if (kind < 8) {
                        int shares = (1 + random.nextInt(20)) * (random.nextBoolean() ? 1 : -1);
                        engine.placeOrder(
                                account,
                                symbol,
                                BigDecimal.valueOf(shares),
                                BigDecimal.valueOf(95 + random.nextInt(11)).add(new BigDecimal("0.25")));
                    } else {
                        long order = 1 + random.nextInt(Math.max(1, (int) engine.nextOrderId() - 1));
                        engine.order(order).ifPresent(o -> engine.cancel(o.accountId(), order));
                    }
                }
            }
            store.commit(ExchangeStore.snapshot(changes));
            changes.clear();
        }

        return accounts;
    }

    @Test
    void aSuccessorRebuiltFromTheTablesKnowsTheIdempotencyKeysOfOrdersItsPredecessorPlaced() {
        MatchingEngine predecessor = store.load(() -> 1_700_000_000L, MemoryLimits.DEFAULT);
        ChangeSet changes = new ChangeSet();
        predecessor.reportChangesTo(changes);
        predecessor.createAccount("1", new BigDecimal("100"), "trader");
        predecessor.addShares("A", "1", BigDecimal.TEN);
        predecessor.createAccount("2", new BigDecimal("100"), "trader");
        // A buy that rests, a sell that fills at once (closed), and an order placed without a key.
        long resting = opened(predecessor.placeOrder("1", "A", BigDecimal.ONE, BigDecimal.TWO, "key-1"));
        long filled = opened(predecessor.placeOrder("1", "A", new BigDecimal("-1"), BigDecimal.TWO, "key-2"));
        long unkeyed = opened(predecessor.placeOrder("2", "A", BigDecimal.ONE, BigDecimal.ONE));
        store.commit(ExchangeStore.snapshot(changes));
        changes.clear();

        MatchingEngine successor = store.load(() -> 1_700_000_000L, new MemoryLimits(0, 0));
        successor.reportChangesTo(changes);

        assertThat(opened(successor.placeOrder("1", "A", BigDecimal.ONE, BigDecimal.TWO, "key-1")))
                .isEqualTo(resting);
        assertThat(opened(successor.placeOrder("1", "A", new BigDecimal("-1"), BigDecimal.TWO, "key-2")))
                .as("a closed order's key too")
                .isEqualTo(filled);
        assertThat(changes.isEmpty()).as("a repeated placement changes nothing").isTrue();
        assertThat(opened(successor.placeOrder("2", "A", BigDecimal.ONE, BigDecimal.TWO, "key-1")))
                .as("a key is the account's own")
                .isNotIn(resting, filled, unkeyed);
        assertThat(new JdbcTemplate(dataSource)
                        .queryForList("SELECT client_key FROM exchange_order ORDER BY id", String.class))
                .containsExactly("key-1", "key-2", null);
    }

    @Test
    void everyPlacedOrderCarriesTheEpochOfTheLeaseItsBatchWasFencedWith() {
        MatchingEngine engine = store.load(() -> 1_700_000_000L, MemoryLimits.DEFAULT);
        ChangeSet changes = new ChangeSet();
        engine.reportChangesTo(changes);
        engine.createAccount("1", new BigDecimal("100"), "trader");
        long placed = opened(engine.placeOrder("1", "A", BigDecimal.ONE, BigDecimal.TWO));
        store.commit(ExchangeStore.snapshot(changes));

        long epoch = store.leadership().epoch();
        assertThat(epoch).isPositive();
        assertThat(new JdbcTemplate(dataSource)
                        .queryForObject("SELECT epoch FROM exchange_order WHERE id = ?", Long.class, placed))
                .isEqualTo(epoch);
    }

    private static long opened(Result result) {
        assertThat(result).isInstanceOf(Result.OrderOpened.class);
        return ((Result.OrderOpened) result).orderId();
    }

    @Test
    void theIntegrityCheckFindsWhatTheDroppedConstraintsRefused() {
        new JdbcTemplate(dataSource).update("INSERT INTO position (account_id, symbol, shares) VALUES ('7', 'X-1', 1)");

        assertThat(integrityViolations()).containsExactlyInAnyOrder("position without account 7", "symbol X-1");
    }

    /**
     * What the dropped constraints (V4) used to refuse: a row whose parent is missing, an account id that is not
     * digits, a symbol that is not letters and digits. The single writer must never write one.
     */
    private List<String> integrityViolations() {
        return new JdbcTemplate(dataSource)
                .queryForList(
                        """
                SELECT 'position without account ' || account_id FROM position
                    WHERE NOT EXISTS (SELECT 1 FROM account WHERE account.id = position.account_id)
                UNION ALL SELECT 'order without account ' || id FROM exchange_order
                    WHERE NOT EXISTS (SELECT 1 FROM account WHERE account.id = exchange_order.account_id)
                UNION ALL SELECT 'execution without orders ' || id FROM execution
                    WHERE NOT EXISTS (SELECT 1 FROM exchange_order WHERE exchange_order.id = execution.buy_order_id)
                       OR NOT EXISTS (SELECT 1 FROM exchange_order WHERE exchange_order.id = execution.sell_order_id)
                UNION ALL SELECT 'account id ' || id FROM account WHERE id !~ '^[0-9]{1,100}$'
                UNION ALL SELECT 'symbol ' || symbol FROM position WHERE symbol !~ '^[A-Za-z0-9]{1,32}$'
                UNION ALL SELECT 'symbol ' || symbol FROM exchange_order WHERE symbol !~ '^[A-Za-z0-9]{1,32}$'
                """,
                        String.class);
    }

    private static Map<String, String> accountsOf(MatchingEngine engine) {
        Map<String, String> accounts = new TreeMap<>();
        for (Account account : engine.accounts()) {
            accounts.put(
                    account.id(), account.owner() + " " + account.balance() + " " + new TreeMap<>(account.positions()));
        }
        return accounts;
    }

    private static java.util.Set<Long> ids(Iterable<Order> orders) {
        java.util.Set<Long> ids = new java.util.TreeSet<>();
        for (Order order : orders) ids.add(order.id());
        return ids;
    }

    /** Every order ever placed, as its owner's query answers it (stored parts read from the tables). */
    private Map<Long, OrderSnapshot> ordersOf(MatchingEngine engine, StoredResults stored) {
        Map<Long, OrderSnapshot> orders = new TreeMap<>();
        Map<Long, String> owners = new TreeMap<>();
        new JdbcTemplate(dataSource).query("SELECT id, account_id FROM exchange_order", row -> {
            owners.put(row.getLong(1), row.getString(2));
        });
        owners.forEach((id, owner) -> {
            Result answer = stored.complete(engine.query(owner, id));
            orders.put(id, ((Result.OrderStatus) answer).order());
        });
        return orders;
    }
}
