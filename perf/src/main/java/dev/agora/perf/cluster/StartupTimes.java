package dev.agora.perf.cluster;

import java.time.Duration;
import java.util.Map;

/**
 * How long a cluster start took.
 *
 * @param total from the call to {@link Cluster#start(ClusterSpec)} until every instance was ready and the frontends reached every tier
 * @param postgres starting the embedded PostgreSQL and creating the databases
 * @param preparation copying jars and, with the AOT cache, extracting and training (zero when reused)
 * @param instances per instance name, from its process start until its readiness probe said UP
 * @param serving after every instance was ready, until every frontend reached every tier behind it
 */
public record StartupTimes(
        Duration total, Duration postgres, Duration preparation, Map<String, Duration> instances, Duration serving) {

    public StartupTimes {
        instances = Map.copyOf(instances);
    }
}
