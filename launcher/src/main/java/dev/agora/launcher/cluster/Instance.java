package dev.agora.launcher.cluster;

import java.nio.file.Path;

/**
 * One running service process of a cluster.
 *
 * @param name e.g. "catalog-2"
 * @param service "frontend", "catalog", "order" or "exchange"
 * @param pid the current process id; it changes on restart, -1 when never started
 * @param url base URL, e.g. "http://127.0.0.1:8181"
 * @param log where the process writes stdout and stderr
 */
public record Instance(String name, String service, int port, long pid, String url, Path log) {}
