package dev.agora.launcher.cluster;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A test class that launches a whole cluster of real processes, which takes minutes on two cores. It runs in
 * the full build (launcher/pom.xml sets {@code agora.cluster-tests=true}, after every service is packaged); a quick
 * local build of the launcher can skip it with {@code -Dagora.cluster-tests=false}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("cluster")
@EnabledIfSystemProperty(named = "agora.cluster-tests", matches = "true")
@interface ClusterTest {}
