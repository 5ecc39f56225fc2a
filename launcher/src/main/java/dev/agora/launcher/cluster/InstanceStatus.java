package dev.agora.launcher.cluster;

import java.nio.file.Path;

/** An instance as the control endpoint reports it. */
record InstanceStatus(
        String name, String service, int port, long pid, String url, String log, boolean alive, boolean frozen) {

    static InstanceStatus of(Instance instance, boolean frozen) {
        return new InstanceStatus(
                instance.name(),
                instance.service(),
                instance.port(),
                instance.pid(),
                instance.url(),
                instance.log().toString(),
                instance.pid() > 0,
                frozen);
    }

    Instance toInstance() {
        return new Instance(name, service, port, pid, url, Path.of(log));
    }
}
