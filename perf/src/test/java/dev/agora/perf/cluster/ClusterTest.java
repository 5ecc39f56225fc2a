package dev.agora.perf.cluster;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A test class that launches a whole cluster of real processes, which takes minutes on two cores. Opt-in with {@code -Dagora.cluster-tests=true} (e.g. {@code ./mvnw -pl
 * perf verify -Dagora.cluster-tests=true}), so a quick build of the perf module does not start clusters; CI should
 * set it after packaging every service.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("cluster")
@EnabledIfSystemProperty(named = "agora.cluster-tests", matches = "true")
@interface ClusterTest {}
