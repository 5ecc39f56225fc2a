package dev.agora.launcher.cluster;

import java.time.Duration;
import java.util.Map;

/**
 * How long a cluster start took.
 *
 * @param total from the call to {@link Cluster#start(ClusterSpec)} until every instance was ready and the frontends reached every tier
 * @param postgres starting the embedded PostgreSQL and creating the databases
 * @param preparation extracting jars and training AOT caches (near zero when both are reused)
 * @param instances per instance name, from its process start until its readiness probe said UP
 * @param serving after every instance was ready, until every frontend reached every tier behind it
 * @param instanceCpu per instance name, the CPU time its process had used when it became ready: the start-up work,
 *     which unlike the wall-clock time hardly depends on how busy the machine is
 */
public record StartupTimes(
        Duration total,
        Duration postgres,
        Duration preparation,
        Map<String, Duration> instances,
        Duration serving,
        Map<String, Duration> instanceCpu) {

    public StartupTimes {
        instances = Map.copyOf(instances);
        instanceCpu = Map.copyOf(instanceCpu);
    }
}
