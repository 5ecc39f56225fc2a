package dev.agora.order;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.leader.testing.LeaseSchema;
import org.junit.jupiter.api.Test;

class LeaseMigrationTest {

    @Test
    void theLeaseMigrationRunsCommonsLeaseStatementsUnchanged() {
        assertThat(LeaseSchema.migration("db/migration/V4_1__leader_lease.sql")).isEqualTo(LeaseSchema.common());
    }
}
