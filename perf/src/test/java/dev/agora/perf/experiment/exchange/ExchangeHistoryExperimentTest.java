package dev.agora.perf.experiment.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The live heap read from {@code jcmd GC.class_histogram}: its total, less the GC's filler arrays. */
class ExchangeHistoryExperimentTest {

    @Test
    void theLiveHeapIsTheHistogramsTotalLessFillers() {
        String histogram =
                """
                12345:
                 num     #instances         #bytes  class name (module)
                -------------------------------------------------------
                   1:            88        8610840  [Ljdk.internal.vm.FillerElement; (java.base@25.0.1)
                   2:        146279       11985008  [B (java.base@25.0.1)
                   3:         16384        1179648  dev.agora.exchange.matching.Order
                Total        162751       21775496
                """;

        assertThat(ExchangeHistoryExperiment.totalBytes(histogram)).isEqualTo(21_775_496L - 8_610_840L);
    }
}
