package dev.agora.launcher.toxiproxy;

import java.util.Map;

/**
 * One of Toxiproxy's toxics, as its HTTP API takes it: a named effect on one direction of a proxy's connections.
 *
 * @param name unique within its proxy
 * @param type Toxiproxy's type: {@code latency}, {@code bandwidth}, {@code timeout}, {@code reset_peer},
 *     {@code limit_data}, ...
 * @param stream {@code upstream} (what the caller sends) or {@code downstream} (what it gets back)
 * @param toxicity the share of connections it applies to, 0 to 1
 * @param attributes the type's own settings (milliseconds, KB/s, bytes)
 */
public record Toxic(String name, String type, String stream, double toxicity, Map<String, Long> attributes) {

    public static final String UPSTREAM = "upstream";
    public static final String DOWNSTREAM = "downstream";

    public Toxic {
        if (!UPSTREAM.equals(stream) && !DOWNSTREAM.equals(stream)) {
            throw new IllegalArgumentException("stream is upstream or downstream, not " + stream);
        }
        if (toxicity < 0 || toxicity > 1) throw new IllegalArgumentException("toxicity outside 0..1: " + toxicity);
        attributes = Map.copyOf(attributes);
    }

    /** Data in {@code stream} is dropped and the connection held open: one direction of a silent partition. */
    public static Toxic drop(String name, String stream) {
        return new Toxic(name, "timeout", stream, 1, Map.of("timeout", 0L));
    }

    /** Every chunk of data in {@code stream} waits {@code millis}, give or take up to {@code jitter}. */
    public static Toxic latency(String name, String stream, long millis, long jitter) {
        return new Toxic(name, "latency", stream, 1, Map.of("latency", millis, "jitter", jitter));
    }

    /** Data in {@code stream} passes at most {@code kilobytesPerSecond}. */
    public static Toxic bandwidth(String name, String stream, long kilobytesPerSecond) {
        return new Toxic(name, "bandwidth", stream, 1, Map.of("rate", kilobytesPerSecond));
    }

    /**
     * A connection is closed once {@code bytes} have passed in {@code stream}: downstream, an answer is cut off in
     * the middle.
     */
    public static Toxic limitData(String name, String stream, long bytes) {
        return new Toxic(name, "limit_data", stream, 1, Map.of("bytes", bytes));
    }

    /** A connection is reset (TCP RST) {@code afterMillis} after data first passes in {@code stream}. */
    public static Toxic resetPeer(String name, String stream, long afterMillis) {
        return new Toxic(name, "reset_peer", stream, 1, Map.of("timeout", afterMillis));
    }

    /** The same toxic on only {@code share} of the connections. */
    public Toxic withToxicity(double share) {
        return new Toxic(name, type, stream, share, attributes);
    }
}
