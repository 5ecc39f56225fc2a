package dev.agora.order.order;

import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.Repository;

interface RaffleTallies extends Repository<RaffleTally, Boolean> {

    /**
     * Counts one more confirmation and returns its place: one conditional update of the tally's single row, which
     * stays locked until the transaction ends, so places are handed out one at a time, in commit order, and a
     * transaction that rolls back takes its place back with it. Native, because JPQL has no {@code RETURNING}: the
     * place would otherwise take a locking read before the update.
     */
    @Query(value = "update raffle_tally set confirmed = confirmed + 1 returning confirmed", nativeQuery = true)
    long countConfirmation();

    /**
     * Takes back the place {@link #countConfirmation} just handed out, for a confirmation that found its order already
     * final. Only while this transaction still holds the tally's row: then no later place has been taken.
     */
    @Modifying
    @Query("update RaffleTally t set t.confirmed = t.confirmed - 1")
    int giveBackLatestPlace();
}
