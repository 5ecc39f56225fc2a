package dev.agora.launcher.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which tier's database this data directory's PostgreSQL already holds migrated and checked by the very jar that is
 * about to run ({@code <data-dir>/schemas/<database>.txt}). The first replica of a tier runs Flyway and Hibernate's
 * schema check ({@code ddl-auto: validate}) at every start, about 1-2 CPU seconds each, though on a restart of the
 * same build there is nothing to migrate and nothing new to check. A stamp names the service jar's content (the
 * digest {@link JarSnapshots} keeps beside the extracted jar) and the PostgreSQL data directory's creation (its
 * {@code PG_VERSION} file's time), so a rebuilt service, a new database or a {@code --fresh} start (which deletes the
 * stamps with the rest of the state) migrates and checks again.
 */
final class SchemaStamps {

    private final Path directory;
    private final Path postgresData;

    SchemaStamps(Path dataDirectory) {
        this.directory = dataDirectory.resolve("schemas");
        this.postgresData = dataDirectory.resolve("postgres");
    }

    /** Whether {@code database} was migrated and checked by the jar {@code application} (extracted) runs. */
    boolean current(String database, Path application) {
        Path stamp = directory.resolve(database + ".txt");
        try {
            return Files.isRegularFile(stamp) && Files.readString(stamp).equals(stampOf(application));
        } catch (IOException e) {
            return false;
        }
    }

    /** Records that the first replica of {@code database}'s tier, run from {@code application}, is ready. */
    void record(String database, Path application) {
        try {
            Files.createDirectories(directory);
            Files.writeString(directory.resolve(database + ".txt"), stampOf(application));
        } catch (IOException e) {
            throw new UncheckedIOException("Schema stamp of " + database, e);
        }
    }

    private String stampOf(Path application) throws IOException {
        // JarSnapshots' digest of the built jar the extracted one came from; a jar from elsewhere stands for itself.
        Path source = application.resolveSibling("source.txt");
        String jar = Files.isRegularFile(source)
                ? Files.readString(source)
                : application + "\n" + JarSnapshots.fingerprint(application) + "\n";
        Path pgVersion = postgresData.resolve("PG_VERSION");
        String database = Files.isRegularFile(pgVersion)
                ? Long.toString(Files.getLastModifiedTime(pgVersion).toMillis())
                : "none";
        return jar + "postgres-created=" + database + "\n";
    }
}
