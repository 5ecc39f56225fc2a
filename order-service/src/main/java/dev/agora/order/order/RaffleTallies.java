package dev.agora.order.order;

import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.Repository;

interface RaffleTallies extends Repository<RaffleTally, Boolean> {

    /**
     * Takes back the place {@link PlacedOrders#confirmInNextPlace} just handed out, for a confirmation that found its order already
     * final. Only while this transaction still holds the tally's row: then no later place has been taken.
     */
    @Modifying
    @Query("update RaffleTally t set t.confirmed = t.confirmed - 1")
    int giveBackLatestPlace();
}
