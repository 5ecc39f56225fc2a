package dev.agora.exchange;

import dev.agora.exchange.sequencer.Sequencer;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import org.springframework.stereotype.Component;

/**
 * Group-commit metrics: commands per batch, apply and commit time per batch, queue depth. The batch size is
 * what makes throughput scale: one fsync is shared by every command of a batch.
 */
@Component
class SequencerMetrics {

    SequencerMetrics(Sequencer sequencer, MeterRegistry registry) {
        DistributionSummary batchSize = DistributionSummary.builder("agora.exchange.batch.commands")
                .description("Commands applied and committed together")
                .publishPercentiles(0.5, 0.9, 0.99)
                .register(registry);
        Timer apply = Timer.builder("agora.exchange.batch.apply")
                .description("Time to apply a batch to the in-memory engine")
                .publishPercentiles(0.5, 0.99)
                .register(registry);
        // A histogram rather than client-side percentiles, so dashboards can aggregate across instances.
        Timer commit = Timer.builder("agora.exchange.batch.commit")
                .description("Time to make a batch durable in PostgreSQL (one statement, one WAL flush)")
                .publishPercentileHistogram()
                .register(registry);
        FunctionCounter.builder("agora.exchange.commands", sequencer, Sequencer::commandsApplied)
                .description("Commands applied by the sequencer (exchange throughput)")
                .register(registry);
        Gauge.builder("agora.exchange.queue.depth", sequencer, Sequencer::queued)
                .description("Commands waiting for the sequencer")
                .register(registry);
        sequencer.observeBatches((commands, applyNanos, commitNanos) -> {
            batchSize.record(commands);
            apply.record(applyNanos, TimeUnit.NANOSECONDS);
            if (commitNanos > 0) commit.record(commitNanos, TimeUnit.NANOSECONDS);
        });
    }
}
