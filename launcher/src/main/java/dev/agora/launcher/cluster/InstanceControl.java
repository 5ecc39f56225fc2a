package dev.agora.launcher.cluster;

import java.time.Duration;
import java.util.List;

/**
 * Fault injection on a running cluster's instances, either in process ({@link Cluster}) or through a launched
 * cluster's control endpoint ({@link ControlClient}), so experiments work the same against both.
 */
public interface InstanceControl {

    List<Instance> instances();

    /** SIGKILL, like a machine losing power. */
    void kill(String instanceName);

    /** SIGSTOP: sockets stay open, nothing answers, like a hung machine. */
    void freeze(String instanceName);

    /** SIGCONT after {@link #freeze(String)}. */
    void thaw(String instanceName);

    /** Kills the instance when alive, starts it and waits until it is ready; returns start-to-ready time. */
    Duration restart(String instanceName);
}
