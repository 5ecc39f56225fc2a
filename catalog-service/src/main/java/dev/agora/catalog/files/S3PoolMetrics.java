package dev.agora.catalog.files;

import dev.agora.common.problem.BusyPools;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.HttpMetric;
import software.amazon.awssdk.metrics.MetricCollection;
import software.amazon.awssdk.metrics.MetricPublisher;

/**
 * The S3 client's connection pool as gauges: its bound, connections in use and calls waiting for one, as the SDK
 * reports them with each call ({@link HttpMetric}); and a count of calls refused because none came free in time.
 * Micrometer has no binder for the AWS SDK v2 and the SDK's own publishers send to CloudWatch, so this small publisher
 * copies the three figures the SDK already measures.
 */
final class S3PoolMetrics implements MetricPublisher {

    private final AtomicInteger max = new AtomicInteger();
    private final AtomicInteger leased = new AtomicInteger();
    private final AtomicInteger pending = new AtomicInteger();
    private final Counter rejected;

    S3PoolMetrics(MeterRegistry meters) {
        Gauge.builder("agora.files.s3.pool.max", max, AtomicInteger::get)
                .description("Connections the S3 client may open")
                .register(meters);
        Gauge.builder("agora.files.s3.pool.leased", leased, AtomicInteger::get)
                .description("S3 connections in use, as of the latest call")
                .register(meters);
        Gauge.builder("agora.files.s3.pool.pending", pending, AtomicInteger::get)
                .description("S3 calls waiting for a connection, as of the latest call")
                .register(meters);
        rejected = Counter.builder("agora.files.s3.pool.rejected")
                .description("S3 calls refused: no connection came free within the acquisition timeout")
                .register(meters);
    }

    @Override
    public void publish(MetricCollection metrics) {
        metrics.metricValues(HttpMetric.MAX_CONCURRENCY).forEach(max::set);
        metrics.metricValues(HttpMetric.LEASED_CONCURRENCY).forEach(leased::set);
        metrics.metricValues(HttpMetric.PENDING_CONCURRENCY_ACQUIRES).forEach(pending::set);
        metrics.children().forEach(this::publish);
    }

    /** Counts {@code failure} when it is a refusal for want of a pooled connection; returns it either way. */
    SdkClientException counted(SdkClientException failure) {
        if (BusyPools.busy(failure) != null) rejected.increment();
        return failure;
    }

    @Override
    public void close() {}
}
