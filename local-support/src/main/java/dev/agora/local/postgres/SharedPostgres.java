package dev.agora.local.postgres;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.ClassUtils;

/**
 * One PostgreSQL server per JVM, started on first use and stopped at JVM exit: a Testcontainers container
 * when Testcontainers is on the class path and a Docker engine answers (tests on machines with Docker),
 * the embedded server otherwise (local runs, tests on machines without Docker). The same tests run either
 * way against a real PostgreSQL.
 */
public final class SharedPostgres {

    private static final Logger log = LoggerFactory.getLogger(SharedPostgres.class);
    private static PostgresServer server;

    private SharedPostgres() {}

    public static boolean available(ClassLoader loader) {
        return ClassUtils.isPresent("org.postgresql.Driver", loader)
                && (ClassUtils.isPresent("io.zonky.test.db.postgres.embedded.EmbeddedPostgres", loader)
                        || ClassUtils.isPresent("org.testcontainers.postgresql.PostgreSQLContainer", loader));
    }

    public static synchronized PostgresServer get() {
        if (server == null) {
            ClassLoader loader = SharedPostgres.class.getClassLoader();
            boolean containers = ClassUtils.isPresent("org.testcontainers.postgresql.PostgreSQLContainer", loader)
                    && !Boolean.getBoolean("agora.postgres.embedded-only")
                    && ContainerPostgresServer.dockerAvailable();
            long started = System.nanoTime();
            server = containers ? ContainerPostgresServer.start() : EmbeddedPostgresServer.start(null, 0);
            log.info(
                    "Started {} PostgreSQL in {} ms",
                    containers ? "Testcontainers" : "embedded",
                    (System.nanoTime() - started) / 1_000_000);
            PostgresServer started0 = server;
            Runtime.getRuntime().addShutdownHook(new Thread(started0::close, "shared-postgres-stop"));
        }
        return server;
    }
}
