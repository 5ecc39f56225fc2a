package dev.agora.exchange.sequencer;

/** Told about every committed batch, on the committer thread, in batch order; must return quickly. */
@FunctionalInterface
public interface BatchObserver {

    /**
     * @param commands commands applied in the batch
     * @param applyNanos time spent applying them to the engine
     * @param commitNanos time spent making their changes durable (0 when nothing changed)
     */
    void batchCommitted(int commands, long applyNanos, long commitNanos);
}
