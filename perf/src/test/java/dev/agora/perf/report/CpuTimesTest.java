package dev.agora.perf.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class CpuTimesTest {

    // Lines as /proc/stat prints them (two spaces after "cpu"). Between the two, each column moved by a different
    // amount, so a column read from the wrong position changes a share: user +600, nice +10, system +90, idle +170,
    // iowait +20, irq +5, softirq +25, steal +80, guest +300 (inside user already), guest_nice +0; 1000 ticks in all.
    private static final String START = "cpu  9318203 156789 1358181 2951681 77855 0 219854 389357 0 0";
    private static final String END = "cpu  9318803 156799 1358271 2951851 77875 5 219879 389437 300 0";

    @Test
    void readsTheColumnsInTheKernelsOrder() {
        CpuTimes times = CpuTimes.parse(END);

        assertThat(times).isEqualTo(new CpuTimes(9318803, 156799, 1358271, 2951851, 77875, 5, 219879, 389437));
    }

    @Test
    void sharesAreStealAndBusyTicksOverAllTicksBetweenTwoReadings() {
        CpuTimes.Shares shares = CpuTimes.Shares.between(CpuTimes.parse(START), CpuTimes.parse(END));

        assertThat(shares.stealPercent()).isCloseTo(8.0, within(1e-9));
        // user 600 + nice 10 + system 90 + irq 5 + softirq 25; not idle, iowait or steal, and guest not twice
        assertThat(shares.busyPercent()).isCloseTo(73.0, within(1e-9));
    }

    @Test
    void unknownWithoutTwoReadingsOrWithoutTicksBetweenThem() {
        CpuTimes start = CpuTimes.parse(START);

        assertThat(CpuTimes.Shares.between(Optional.empty(), Optional.of(start)))
                .isEqualTo(CpuTimes.Shares.UNKNOWN);
        assertThat(CpuTimes.Shares.between(start, start).stealPercent()).isNaN();
    }

    @Test
    void refusesAPerCoreLineOrAKernelWithoutTheStealColumn() {
        assertThatThrownBy(() -> CpuTimes.parse("cpu0 4645860 70725 663055 1558873 13688 0 95603 187395 0 0"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CpuTimes.parse("cpu  1 2 3 4 5 6 7")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theReportSaysHowBusyTheMachineWasOrThatItCannotTell() {
        MachineLoad measured = new MachineLoad(1.5, 2.25, new CpuTimes.Shares(8, 73));
        MachineLoad elsewhere = new MachineLoad(Double.NaN, Double.NaN, CpuTimes.Shares.UNKNOWN);

        assertThat(measured.describe(2))
                .contains("at start / end of this experiment: 1.5 / 2.25 on 2 cores")
                .contains("busy 73% (user + nice + system + irq + softirq) and the hypervisor took 8% (steal");
        assertThat(elsewhere.describe(2)).contains("n/a / n/a").contains("CPU time shares unknown (no /proc/stat");
    }
}
