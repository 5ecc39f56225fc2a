package dev.agora.perf.jmh;

import dev.agora.exchange.matching.MatchingEngine;
import dev.agora.exchange.matching.Result;
import dev.agora.exchange.store.ChangeSet;
import java.math.BigDecimal;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The exchange's matching core alone, one thread: a stream of order operations (45% buys, 45% sells with
 * limits around one mid price so that about half of them trade, 10% cancels of recent orders) on one symbol,
 * with accounts that never run out of cash or shares. Target: at least 1,000,000 operations/s.
 *
 * <p>Operands are prepared up front, as the protocol layer hands the engine already-parsed decimals. Results go to
 * a {@link Blackhole} so nothing is dead code. {@code placeMatchCancel} is the engine alone;
 * {@code placeMatchCancelTrackingChanges} also records every changed row in a {@link ChangeSet} cleared every
 * 32 operations, as the sequencer does per batch, which is what the engine costs in the running service.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx4g", "-XX:+UseParallelGC"})
public class MatchingBenchmark {

    private static final int OPERATIONS = 1 << 16;
    private static final int ACCOUNTS = 64;
    private static final String SYMBOL = "SPY";

    private final int[] kinds = new int[OPERATIONS];
    private final String[] accounts = new String[OPERATIONS];
    private final BigDecimal[] amounts = new BigDecimal[OPERATIONS];
    private final BigDecimal[] limits = new BigDecimal[OPERATIONS];
    private final int[] cancelDistance = new int[OPERATIONS];
    private final String[] accountIds = new String[ACCOUNTS];
    private static final int BATCH = 32;

    private MatchingEngine engine;
    private ChangeSet changes;
    private long lastOrderId;

    @Setup(Level.Trial)
    public void prepareOperations() {
        SplittableRandom random = new SplittableRandom(42);
        for (int a = 0; a < ACCOUNTS; a++) accountIds[a] = Integer.toString(10_000 + a);
        BigDecimal[] quantities = new BigDecimal[100];
        for (int q = 0; q < quantities.length; q++) quantities[q] = BigDecimal.valueOf(q + 1);
        BigDecimal[] prices = new BigDecimal[41];
        for (int p = 0; p < prices.length; p++) prices[p] = new BigDecimal("98.00").add(BigDecimal.valueOf(p, 1));
        for (int i = 0; i < OPERATIONS; i++) {
            int roll = random.nextInt(100);
            kinds[i] = roll < 45 ? 0 : roll < 90 ? 1 : 2;
            accounts[i] = accountIds[random.nextInt(ACCOUNTS)];
            BigDecimal quantity = quantities[random.nextInt(quantities.length)];
            amounts[i] = kinds[i] == 1 ? quantity.negate() : quantity;
            // Buys lean a little higher than sells so that the book keeps crossing.
            int tick = random.nextInt(31) + (kinds[i] == 0 ? 10 : 0);
            limits[i] = prices[tick];
            cancelDistance[i] = 1 + random.nextInt(200);
        }
    }

    @Setup(Level.Iteration)
    public void freshEngine() {
        engine = new MatchingEngine(() -> 1_700_000_000L);
        for (String id : accountIds) {
            engine.createAccount(id, new BigDecimal("1000000000000000"));
            engine.addShares(SYMBOL, id, new BigDecimal("1000000000000"));
        }
        lastOrderId = 0;
        changes = null;
    }

    @Benchmark
    @OperationsPerInvocation(OPERATIONS)
    public void placeMatchCancel(Blackhole blackhole) {
        run(blackhole);
    }

    @Benchmark
    @OperationsPerInvocation(OPERATIONS)
    public void placeMatchCancelTrackingChanges(Blackhole blackhole) {
        if (changes == null) {
            changes = new ChangeSet();
            engine.reportChangesTo(changes);
        }
        run(blackhole);
    }

    private void run(Blackhole blackhole) {
        for (int i = 0; i < OPERATIONS; i++) {
            if (changes != null && i % BATCH == 0) {
                blackhole.consume(changes.isEmpty());
                changes.clear();
            }
            Result result;
            if (kinds[i] == 2 && lastOrderId > cancelDistance[i]) {
                result = engine.cancel(accounts[i], lastOrderId - cancelDistance[i]);
            } else {
                result = engine.placeOrder(accounts[i], SYMBOL, amounts[i], limits[i]);
                if (result instanceof Result.OrderOpened opened) lastOrderId = opened.orderId();
            }
            blackhole.consume(result);
        }
    }
}
