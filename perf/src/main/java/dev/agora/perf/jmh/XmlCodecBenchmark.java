package dev.agora.perf.jmh;

import dev.agora.exchange.matching.MatchingEngine;
import dev.agora.exchange.xml.XmlCodec;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The exchange's XML protocol without sockets: hardened StAX parsing of typical requests, and the whole
 * request-to-reply path (parse, apply to an engine, write the reply) of the seed's transaction request
 * (one order, one query, one cancel).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx2g"})
public class XmlCodecBenchmark {

    private static final byte[] CREATE = bytes("<?xml version=\"1.0\" encoding=\"UTF-8\"?><create>"
            + "<account id=\"123456\" balance=\"1000\"/><symbol sym=\"SPY\"><account id=\"123456\">100000</account>"
            + "</symbol></create>");
    private static final byte[] TRANSACTIONS = bytes("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
            + "<transactions id=\"1\"><order sym=\"SPY\" amount=\"10\" limit=\"100.5\"/><query id=\"1\"/>"
            + "<cancel id=\"2\"/></transactions>");

    private final XmlCodec codec = new XmlCodec(10_000);
    private MatchingEngine engine;

    private static byte[] bytes(String xml) {
        return xml.getBytes(StandardCharsets.UTF_8);
    }

    @Setup(Level.Iteration)
    public void freshEngine() {
        engine = new MatchingEngine(() -> 1_700_000_000L);
        engine.createAccount("1", new BigDecimal("1000000000000000"));
        engine.placeOrder("1", "SPY", BigDecimal.ONE, BigDecimal.ONE);
        engine.placeOrder("1", "SPY", BigDecimal.ONE, BigDecimal.ONE);
    }

    @Benchmark
    public int parseCreate() {
        return codec.parse(CREATE);
    }

    @Benchmark
    public int parseTransactions() {
        return codec.parse(TRANSACTIONS);
    }

    @Benchmark
    public byte[] transactionRoundTrip() {
        return codec.apply(TRANSACTIONS, engine);
    }
}
