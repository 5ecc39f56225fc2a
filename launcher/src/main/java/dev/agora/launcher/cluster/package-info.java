/**
 * The local cluster launcher: one embedded PostgreSQL (databases catalog, orders, exchange, identity) and every
 * service replica as its own OS process, so that experiments and tests can kill ({@code SIGKILL}), freeze ({@code
 * SIGSTOP}), thaw and restart real processes.
 *
 * <ul>
 *   <li>{@link dev.agora.launcher.cluster.Cluster#start(ClusterSpec)} from code (experiments, tests); {@code
 *       java -jar launcher/target/agora.jar} ({@code ./agora}) from a shell, which keeps it running and reads
 *       {@code kill catalog-2}-style commands on stdin;
 *   <li>{@link dev.agora.launcher.cluster.InstanceControl} is the fault-injection interface, implemented in process by
 *       {@code Cluster} and remotely by {@link dev.agora.launcher.cluster.ControlClient} against the control endpoint
 *       ({@code GET /instances}, {@code POST /instances/{name}/kill|freeze|thaw|restart} on 127.0.0.1:8390 plus
 *       the port offset, with the data directory's {@link dev.agora.launcher.cluster.ControlToken}), which {@code agora.jar
 *       ctl} uses.
 * </ul>
 *
 * <p>Layout of the data directory: {@code postgres/} (kept across runs; databases catalog, orders, exchange and the
 * frontends' identity), {@code demo-credentials.properties} (the demo users' OAuth2 clients and web passwords, kept across runs,
 * mode 0600), {@code control-token} (new at every start, mode 0600), {@code logs/<instance>.log}, {@code
 * jars/<module>/} (the service jars, extracted again when their content changed), {@code aot/<service>/} (JDK 25 AOT caches, trained
 * once per jar); {@code --fresh} keeps the last two. Every instance runs in the {@code local} profile.
 * Ports: frontend 8080+, catalog 8180+, order 8280+, exchange 8380 and TCP 12345, control 8390, all plus the port
 * offset; everything listens on 127.0.0.1 only.
 */
package dev.agora.launcher.cluster;
