package dev.agora.local.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatabaseOwnersTest {

    private final PostgresServer server = SharedPostgres.get();

    @Test
    void eachServiceRoleOwnsItsDatabaseAndCannotEnterAnother() throws Exception {
        String suffix = Long.toString(System.nanoTime() % 1_000_000, 36);
        // A table made by the superuser, as runs before per-service roles did.
        String ordersUrl = server.jdbcUrl("owners_orders_" + suffix);
        try (var superuser = DriverManager.getConnection(ordersUrl, server.username(), server.password())) {
            superuser.createStatement().execute("CREATE TABLE earlier (id int)");
        }
        DatabaseOwners.Login orders = DatabaseOwners.ensure(server, "owners_orders_" + suffix);
        DatabaseOwners.Login catalog = DatabaseOwners.ensure(server, "owners_catalog_" + suffix);

        try (var own = DriverManager.getConnection(orders.jdbcUrl(), orders.username(), orders.password());
                var statement = own.createStatement()) {
            statement.execute("CREATE TABLE mine (id int)");
            statement.execute("ALTER TABLE earlier ADD COLUMN owner text");
            var owner = statement.executeQuery("SELECT tableowner FROM pg_tables WHERE tablename = 'earlier'");
            owner.next();
            assertThat(owner.getString(1)).isEqualTo(orders.username());
        }
        assertThatThrownBy(() -> DriverManager.getConnection(orders.jdbcUrl(), catalog.username(), catalog.password())
                        .close())
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("permission denied");

        DatabaseOwners.Login again = DatabaseOwners.ensure(server, "owners_orders_" + suffix);
        try (var own = DriverManager.getConnection(again.jdbcUrl(), again.username(), again.password())) {
            assertThat(own.isValid(1)).as("repeating is harmless").isTrue();
        }
    }

    @Test
    void aKeptPasswordIsKnownBeforeTheServerIsAskedAndStaysTheSame(@TempDir Path folder) throws Exception {
        String database = "owners_kept_" + Long.toString(System.nanoTime() % 1_000_000, 36);
        Path file = folder.resolve("logins").resolve(database + ".password");
        assertThat(DatabaseOwners.kept("jdbc:postgresql://localhost:1/" + database, database, file))
                .isNull();

        DatabaseOwners.Login first = DatabaseOwners.ensure(server, database, file);
        DatabaseOwners.Login kept = DatabaseOwners.kept(first.jdbcUrl(), database, file);
        DatabaseOwners.Login again = DatabaseOwners.ensure(server, database, file);

        assertThat(kept).isEqualTo(first).isEqualTo(again);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        try (var own = DriverManager.getConnection(kept.jdbcUrl(), kept.username(), kept.password())) {
            assertThat(own.isValid(1)).isTrue();
        }
    }
}
