package dev.agora.perf.experiment.bookstore;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FaultRunRequestTest {

    private static final long MS = 1_000_000;

    @Test
    void theFrontendSwitchIsTheLatestAfterOfTheRequestsFailoverEntries() {
        var request = new FaultRun.Request(
                100 * MS,
                20 * MS,
                200,
                "catalog-service;retry;cause=connect;after=0.412, catalog-service;hedge;after=5.250");

        assertThat(request.frontendSwitchNanos(0)).isEqualTo(5_250_000);
    }

    @Test
    void aRequestCaughtInFlightIsNotChargedItsTimeBeforeTheFault() {
        var request = new FaultRun.Request(100 * MS, 60 * MS, 200, "order-service;retry;cause=io;after=48.000");

        assertThat(request.frontendSwitchNanos(130 * MS)).isEqualTo(18 * MS);
    }

    @Test
    void aRequestNoFailoverTouchedHasNoFrontendSwitch() {
        assertThat(new FaultRun.Request(0, MS, 200, "").frontendSwitchNanos(0)).isEqualTo(-1);
    }
}
