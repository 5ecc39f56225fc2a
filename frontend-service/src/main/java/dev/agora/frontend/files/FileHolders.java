package dev.agora.frontend.files;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * Which catalog nodes held a file when a node last redirected a download of it ({@code 307} naming the holders), so
 * the next download of that name asks a holder first instead of whichever node is next in turn. With three catalogs
 * and two copies of each file, a third of first tries reached a node without the file; with one node holding every
 * file (the central layout), two thirds: each of those cost the node a request and an index read only to answer the
 * redirect.
 *
 * <p>A hint only orders the nodes asked: every node still reads the index and answers 307 when it does not hold the
 * file (its content was replaced and placed elsewhere), and a node that is down or unhealthy is passed over as
 * before, the other nodes following it. A 307 replaces the hint, a 404 drops it. Names are bounded (least used go
 * first), a few hundred bytes each.
 */
final class FileHolders {

    /** Names remembered at most: 20,000 of a few hundred bytes each, about 10 MB at worst. */
    static final int MAX_NAMES = 20_000;

    private final Cache<String, List<URI>> holders;
    private final AtomicInteger turn = new AtomicInteger();

    FileHolders(int maxNames) {
        this.holders = Caffeine.newBuilder().maximumSize(maxNames).build();
    }

    /**
     * The nodes to ask for the file at {@code path}: its holders as last named (in the order {@code healthyFirst}
     * gives them, starting from a different one each time so the copies share the load), then the nodes in turn that
     * are not among them; just the nodes in turn when nothing is known.
     */
    List<URI> candidates(String path, List<URI> inTurn, UnaryOperator<List<URI>> healthyFirst) {
        List<URI> known = holders.getIfPresent(path);
        if (known == null) return inTurn;
        int start = Math.floorMod(turn.getAndIncrement(), known.size());
        List<URI> rotated = new ArrayList<>(known.subList(start, known.size()));
        rotated.addAll(known.subList(0, start));
        List<URI> ordered = new ArrayList<>(healthyFirst.apply(rotated));
        for (URI node : inTurn) if (!ordered.contains(node)) ordered.add(node);
        return ordered;
    }

    /** A node named the file's holders in a redirect. */
    void redirected(String path, List<URI> named) {
        if (!named.isEmpty()) holders.put(path, List.copyOf(named));
    }

    /** The file is not there (any more). */
    void gone(String path) {
        holders.invalidate(path);
    }
}
