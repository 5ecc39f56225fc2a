package dev.agora.perf.experiment;

/**
 * Two clusters up side by side for one experiment, which loads them in turn; closing the pair stops both.
 *
 * @param stop stops both clusters
 */
public record ClusterPair(Target first, Target second, Runnable stop) implements AutoCloseable {

    @Override
    public void close() {
        stop.run();
    }
}
