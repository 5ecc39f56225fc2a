package dev.agora.perf.cluster;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A test class that launches a whole cluster of real processes (about a minute of start-up on two cores). Run with
 * {@code -Dagora.cluster-tests=true}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("cluster")
@EnabledIfSystemProperty(named = "agora.cluster-tests", matches = "true")
@interface ClusterTest {}
