package dev.agora.order.order;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * The raffle's count of confirmations (V4__raffle.sql): a single row. A confirmation counts itself in one update that
 * returns its place and holds the row locked until its commit ({@link PlacedOrders#confirmInNextPlace}), so places are
 * handed out one at a time, in commit order, and a confirmation that rolls back takes its increment with it: places
 * run 1, 2, 3, ... without gaps.
 */
@Entity
@Table(name = "raffle_tally")
class RaffleTally {

    /** Every this many confirmations one wins; fixed by the schema's check (V4__raffle.sql). */
    static final int EVERY = 100;

    @Id
    @Column(name = "only_row")
    private boolean onlyRow;

    @Column(nullable = false)
    private long confirmed;

    protected RaffleTally() {}

    /** Exactly every {@value #EVERY}th place wins. */
    static boolean wins(long place) {
        return place % EVERY == 0;
    }
}
