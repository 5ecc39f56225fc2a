package dev.agora.catalog.files;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.SequencedSet;
import java.util.TreeMap;

/**
 * Which nodes should hold a file: consistent hashing of the file's SHA-256 onto a ring of the nodes, each node at
 * {@link #POINTS_PER_NODE} points so the shares come out even. A file goes to the first nodes met walking the ring
 * clockwise from its hash; adding or removing a node moves only the files whose walk meets it. The walk names
 * every node once, so when a preferred node cannot take a copy the next one does.
 */
final class Placement {

    /** Points per node: with 4 nodes the largest share stays within about 10% of the mean. */
    static final int POINTS_PER_NODE = 160;

    private final TreeMap<Long, String> ring = new TreeMap<>();
    private final int nodeCount;

    Placement(List<String> nodes) {
        SequencedSet<String> distinct = new LinkedHashSet<>(nodes);
        if (distinct.isEmpty()) throw new IllegalArgumentException("A placement needs at least one node");
        for (String node : distinct) {
            for (int point = 0; point < POINTS_PER_NODE; point++) {
                ring.put(position(node + "#" + point), node);
            }
        }
        nodeCount = distinct.size();
    }

    /** Every node, in the order the file's hash prefers them. */
    List<String> preference(String sha256Hex) {
        long start = Long.parseUnsignedLong(sha256Hex.substring(0, 15), 16);
        List<String> order = new ArrayList<>(nodeCount);
        SequencedSet<String> seen = new LinkedHashSet<>();
        for (Map<Long, String> part : List.of(ring.tailMap(start, true), ring.headMap(start, false))) {
            for (String node : part.values()) {
                if (seen.add(node)) order.add(node);
                if (order.size() == nodeCount) return order;
            }
        }
        return order;
    }

    /** A point on the ring: the first 60 bits of the SHA-256 of the text, as files' hashes are read. */
    private static long position(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return Long.parseUnsignedLong(HexFormat.of().formatHex(digest, 0, 8).substring(0, 15), 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
