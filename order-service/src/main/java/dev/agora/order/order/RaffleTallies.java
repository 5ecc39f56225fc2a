package dev.agora.order.order;

import jakarta.persistence.LockModeType;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.Repository;

interface RaffleTallies extends Repository<RaffleTally, Boolean> {

    /** The tally, its row locked until the transaction ends ({@code SELECT ... FOR NO KEY UPDATE}). */
    @Lock(LockModeType.PESSIMISTIC_WRITE)
    @Query("select t from RaffleTally t")
    RaffleTally lock();
}
