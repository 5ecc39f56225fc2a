package dev.agora.exchange.store;

import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.Repository;

/** Executions: the engine reads only where their sequence stands (closed orders' are read when asked for). */
interface ExecutionRows extends Repository<ExecutionRow, Long> {

    @Query("select coalesce(max(e.id), 0) from ExecutionRow e")
    long lastId();
}
