package dev.agora.common.leader.testing;

import dev.agora.common.leader.LeaderLease;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;

/**
 * Each service that uses {@link LeaderLease} owns its database and so carries a copy of common's
 * {@code leader-lease.sql} among its own Flyway migrations. This is what its test compares that copy with, so the
 * copies cannot drift from the statements {@code LeaderLease} runs: comments may differ, statements may not.
 */
public final class LeaseSchema {

    private LeaseSchema() {}

    /** Common's schema, without its comments and blank lines. */
    public static String common() {
        return statementsOf(LeaderLease.class, "leader-lease.sql");
    }

    /** A service's migration (a class-path resource such as {@code db/migration/V7__leader_lease.sql}), likewise. */
    public static String migration(String resource) {
        return statementsOf(LeaseSchema.class, "/" + resource);
    }

    private static String statementsOf(Class<?> base, String resource) {
        try (InputStream sql = base.getResourceAsStream(resource)) {
            if (sql == null) throw new IllegalStateException("No " + resource + " on the class path");
            return new String(sql.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .map(String::strip)
                    .filter(line -> !line.isEmpty() && !line.startsWith("--"))
                    .collect(Collectors.joining("\n"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
