package dev.agora.exchange.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.postgres.PostgresServer;
import dev.agora.common.postgres.SharedPostgres;
import dev.agora.exchange.matching.Account;
import dev.agora.exchange.matching.MatchingEngine;
import dev.agora.exchange.matching.Order;
import dev.agora.exchange.matching.OrderSnapshot;
import dev.agora.exchange.support.FreshSchema;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
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
    private ExchangeStore store;

    @BeforeEach
    void start() throws Exception {
        FreshSchema.migrate(postgres, url);
        store = new ExchangeStore(new DriverManagerDataSource(url, postgres.username(), postgres.password()), 992);
        assertThat(store.acquireLeadership(() -> true, Duration.ofMillis(50))).isTrue();
    }

    @AfterEach
    void stop() {
        store.close();
    }

    @Test
    void theTablesHoldExactlyTheEngineStateAfterRandomBatches() {
        MatchingEngine engine = store.load(() -> 1_700_000_000L);
        ChangeSet changes = new ChangeSet();
        engine.reportChangesTo(changes);
        Random random = new Random(6);
        int accounts = 0;
        for (int batch = 0; batch < 150; batch++) {
            int commands = 1 + random.nextInt(12);
            for (int c = 0; c < commands; c++) {
                int kind = random.nextInt(10);
                if (kind == 0 || accounts < 4) {
                    engine.createAccount(Integer.toString(++accounts), new BigDecimal(random.nextInt(5_000) + ".5"));
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
                        long order = 1 + random.nextInt(Math.max(1, (int) lastOrderId(engine)));
                        engine.order(order).ifPresent(o -> engine.cancel(o.accountId(), order));
                    }
                }
            }
            store.commit(ExchangeStore.snapshot(changes));
            changes.clear();
        }

        MatchingEngine rebuilt = store.load(() -> 1_700_000_000L);

        assertThat(accountsOf(rebuilt)).isEqualTo(accountsOf(engine)).hasSize(accounts);
        assertThat(ordersOf(rebuilt)).isEqualTo(ordersOf(engine)).isNotEmpty();
        assertThat(ordersOf(engine).values()).anyMatch(order -> order.canceled() != null);
        assertThat(ordersOf(engine).values())
                .anyMatch(order -> !order.executions().isEmpty());
    }

    private static long lastOrderId(MatchingEngine engine) {
        long last = 0;
        for (Order order : engine.orders()) last = Math.max(last, order.id());
        return last;
    }

    private static Map<String, String> accountsOf(MatchingEngine engine) {
        Map<String, String> accounts = new TreeMap<>();
        for (Account account : engine.accounts()) {
            accounts.put(account.id(), account.balance() + " " + new TreeMap<>(account.positions()));
        }
        return accounts;
    }

    private static Map<Long, OrderSnapshot> ordersOf(MatchingEngine engine) {
        Map<Long, OrderSnapshot> orders = new TreeMap<>();
        for (Order order : engine.orders()) orders.put(order.id(), order.snapshot());
        return orders;
    }
}
