package dev.agora.exchange.store;

/**
 * Writes one batch's rows as one transaction, fenced with the lease's epoch, and returns once the commit is durable.
 * Used by the committer thread alone, on the session of the instance holding the lease.
 */
interface BatchWriter extends AutoCloseable {

    /**
     * @throws Exception whatever the database said; the store tells a fenced-off batch from other failures
     */
    void write(ExchangeStore.Snapshot rows, String lease, long epoch) throws Exception;

    /** Forgets what was prepared on the session (the session itself is the store's to close). */
    @Override
    void close();
}
