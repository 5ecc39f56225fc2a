package dev.agora.launcher.cluster;

import java.nio.file.Path;
import java.util.List;

/** How to run one tier's processes: which jar, with which JVM options. */
record ServiceLaunch(Path jar, List<String> jvmOptions) {

    ServiceLaunch {
        jvmOptions = List.copyOf(jvmOptions);
    }
}
