package dev.agora.frontend.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** The test cluster's users and their clients, seeded into every frontend as the launcher seeds its demo users. */
public final class DemoCredentials {

    public static final Map<String, String> SECRETS = Map.of(
            "demo-admin", "test-admin-secret-0123456789abcdef0123456789",
            "demo-trader", "test-trader-secret-0123456789abcdef0123456789",
            "demo-customer", "test-customer-secret-0123456789abcdef0123456789");

    private DemoCredentials() {}

    public static Path write(Path file) {
        StringBuilder text = new StringBuilder();
        for (String role : new String[] {"admin", "trader", "customer"}) {
            text.append(role).append(".client-id=demo-").append(role).append('\n');
            text.append(role)
                    .append(".client-secret=")
                    .append(SECRETS.get("demo-" + role))
                    .append('\n');
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            return Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
