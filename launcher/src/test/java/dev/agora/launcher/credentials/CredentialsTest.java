package dev.agora.launcher.credentials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CredentialsTest {

    private static final URI TOKEN_URL = URI.create("http://127.0.0.1:8080/oauth2/token");

    @TempDir
    Path directory;

    @Test
    void aNewFileHasExactlyItsKeysRandomSecretsAndPasswordsAndOnlyItsOwnerMayReadIt() throws IOException {
        Path file = directory.resolve("data").resolve(Credentials.FILE_NAME);

        Credentials written = Credentials.ensure(file, TOKEN_URL);

        Properties properties = load(file);
        assertThat(properties.stringPropertyNames())
                .containsExactlyInAnyOrder(
                        "admin.client-id",
                        "admin.client-secret",
                        "trader.client-id",
                        "trader.client-secret",
                        "customer.client-id",
                        "customer.client-secret",
                        "token-url",
                        "admin.password",
                        "trader.password",
                        "customer.password",
                        "publisher.password");
        assertThat(properties.getProperty("admin.client-id")).isEqualTo("demo-admin");
        assertThat(properties.getProperty("trader.client-id")).isEqualTo("demo-trader");
        assertThat(properties.getProperty("customer.client-id")).isEqualTo("demo-customer");
        assertThat(properties.getProperty("token-url")).isEqualTo(TOKEN_URL.toString());
        Set<String> secrets = Stream.of("admin", "trader", "customer")
                .map(user -> properties.getProperty(user + ".client-secret"))
                .collect(Collectors.toSet());
        assertThat(secrets).hasSize(3).allSatisfy(secret -> assertThat(secret).matches("[A-Za-z0-9_-]{43}"));
        Set<String> passwords = Stream.of("admin", "trader", "customer", "publisher")
                .map(user -> properties.getProperty(user + ".password"))
                .collect(Collectors.toSet());
        assertThat(passwords).hasSize(4).doesNotContainAnyElementsOf(secrets).allSatisfy(password -> assertThat(
                        password)
                .matches("[A-Za-z0-9_-]{43}"));
        assertThat(written.passwords()).containsEntry("publisher", properties.getProperty("publisher.password"));
        assertThat(Credentials.read(file)).isEqualTo(written);
        // What the README's grep | cut reads is the value itself: nothing in a line is escaped.
        assertThat(Files.readAllLines(file)).contains("token-url=" + TOKEN_URL);
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                    .isEqualTo("rw-------");
        }
    }

    @Test
    void aRestartKeepsTheSecretsAndFollowsTheFrontendsPort() throws IOException {
        Path file = directory.resolve(Credentials.FILE_NAME);
        Credentials first = Credentials.ensure(file, TOKEN_URL);
        String before = Files.readString(file);

        assertThat(Credentials.ensure(file, TOKEN_URL)).isEqualTo(first);
        assertThat(Files.readString(file)).as("unchanged, not rewritten").isEqualTo(before);

        URI moved = URI.create("http://127.0.0.1:10080/oauth2/token");
        Credentials again = Credentials.ensure(file, moved);
        assertThat(again.tokenUrl()).isEqualTo(moved);
        assertThat(again.customer()).isEqualTo(first.customer());
        assertThat(again.admin()).isEqualTo(first.admin());
        assertThat(again.passwords()).isEqualTo(first.passwords());
        assertThat(Credentials.read(file)).isEqualTo(again);
    }

    @Test
    void aFileFromBeforeThePasswordsKeepsItsClientsAndGetsPasswords() throws IOException {
        Path file = directory.resolve(Credentials.FILE_NAME);
        Credentials first = Credentials.ensure(file, TOKEN_URL);
        List<String> withoutPasswords = Files.readAllLines(file).stream()
                .filter(line -> !line.contains(".password="))
                .toList();
        Files.write(file, withoutPasswords);

        Credentials upgraded = Credentials.ensure(file, TOKEN_URL);

        assertThat(upgraded.customer()).isEqualTo(first.customer());
        assertThat(upgraded.admin()).isEqualTo(first.admin());
        assertThat(upgraded.passwords().keySet()).containsExactly("admin", "trader", "customer", "publisher");
        assertThat(load(file).stringPropertyNames()).containsExactlyInAnyOrderElementsOf(Credentials.KEYS);
        assertThat(Credentials.read(file)).isEqualTo(upgraded);
    }

    @Test
    void aDamagedFileIsReplacedAndAMissingOneNamesItself() throws IOException {
        Path file = directory.resolve(Credentials.FILE_NAME);
        Files.writeString(file, "admin.client-id=demo-admin\n");

        assertThatThrownBy(() -> Credentials.read(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("admin.client-secret");
        Credentials replaced = Credentials.ensure(file, TOKEN_URL);
        assertThat(load(file).stringPropertyNames()).containsExactlyInAnyOrderElementsOf(Credentials.KEYS);
        assertThat(Credentials.read(file)).isEqualTo(replaced);

        assertThatThrownBy(() -> Credentials.read(directory.resolve("absent.properties")))
                .hasMessageContaining("absent.properties");
    }

    @Test
    void secretsStayOutOfTextMeantForPeople() {
        Credentials credentials = Credentials.generate(TOKEN_URL);

        assertThat(credentials.toString())
                .contains("demo-customer")
                .doesNotContain(credentials.customer().secret())
                .doesNotContain(credentials.admin().secret())
                .doesNotContain(credentials.passwords().get("customer"));
    }

    private static Properties load(Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        }
        return properties;
    }
}
