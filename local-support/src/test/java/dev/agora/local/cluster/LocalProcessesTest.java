package dev.agora.local.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agora.local.process.ServiceProcess;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fixture against real child processes of a small jar that answers like a service. */
class LocalProcessesTest {

    private static final Duration READY = Duration.ofSeconds(60);

    @TempDir
    static Path folder;

    private static Path jar;

    @BeforeAll
    static void packFakeService() throws IOException {
        jar = folder.resolve("fake-service-exec.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, FakeService.class.getName());
        String entry = FakeService.class.getName().replace('.', '/') + ".class";
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest);
                InputStream bytes = FakeService.class.getClassLoader().getResourceAsStream(entry)) {
            out.putNextEntry(new JarEntry(entry));
            bytes.transferTo(out);
            out.closeEntry();
        }
    }

    private static LocalProcesses processes() {
        return new LocalProcesses(folder.resolve("logs"), module -> {
            assertThat(module).isEqualTo("fake-service");
            return jar;
        });
    }

    @Test
    void aServiceRunsInTheLocalProfileOnAFreePortLogsToItsFolderAndIsKilledOnClose() {
        ServiceProcess service;
        try (LocalProcesses processes = processes()) {
            service = processes.service("fake-service", "fake-1", settings -> settings.env("FAKE_ROLE", "STANDBY"));
            service.startAndAwaitReady(READY);

            assertThat(Health.of(service.baseUrl(), Duration.ofSeconds(5)))
                    .hasValueSatisfying(health -> assertThat(health).contains("\"profile\":\"local\""));
            assertThat(Health.role(service.baseUrl())).hasValue("STANDBY");
            Health.await(service, "\"role\":\"STANDBY\"", READY);
            Health.awaitActiveOrStandby(service, READY);
            assertThat(service.logFile()).isEqualTo(folder.resolve("logs").resolve("fake-1.log"));
            assertThat(service.logFile()).exists();
            assertThat(LocalProcesses.urls(List.of(service, service)))
                    .isEqualTo(service.baseUrl() + "," + service.baseUrl());

            service.freeze();
            assertThat(Health.of(service.baseUrl(), Duration.ofMillis(500)))
                    .as("a frozen process answers nothing")
                    .isEmpty();
            assertThat(Health.role(service.baseUrl())).isEmpty();
            // Closed while frozen: thawed and killed all the same.
        }
        assertThat(service.isAlive()).isFalse();
        assertThat(Health.of(service.baseUrl(), Duration.ofMillis(500))).isEmpty();
    }

    @Test
    void aThawedServiceAnswersAgain() {
        try (LocalProcesses processes = processes()) {
            ServiceProcess service = processes.service("fake-service", "fake-2", settings -> {});
            service.startAndAwaitReady(READY);
            service.freeze();
            assertThat(service.isReady()).isFalse();

            service.thaw();

            // A thawed JVM first works off what queued while it was stopped; on a loaded box one 500 ms probe may
            // not be enough, so the probe repeats for a while.
            assertThat(readyWithin(service, Duration.ofSeconds(15))).isTrue();
            assertThat(Health.role(service.baseUrl())).hasValue("null");
        }
    }

    @Test
    void waitingForHealthEndsWhenTheProcessDies() {
        try (LocalProcesses processes = processes()) {
            ServiceProcess service = processes.service("fake-service", "fake-3", settings -> {});
            service.startAndAwaitReady(READY);
            service.kill();

            assertThatThrownBy(() -> Health.await(service, "never", READY))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("fake-3 exited");
        }
    }

    @Test
    void aFreePortCanBeBoundOnLoopback() throws IOException {
        int port = FreePorts.next();
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertThat(socket.getLocalPort()).isEqualTo(port);
        }
        assertThat(FreePorts.url(port)).isEqualTo("http://127.0.0.1:" + port);
    }

    @Test
    void theLocalProfilesEnvironment() {
        assertThat(LocalProfile.trusting("http://127.0.0.1:1,http://127.0.0.1:2"))
                .containsEntry("SPRING_PROFILES_ACTIVE", "local")
                .containsEntry("AGORA_SECURITY_AUTHORITIES", "http://127.0.0.1:1,http://127.0.0.1:2");
        assertThat(LocalProfile.database("jdbc:postgresql://127.0.0.1:5/x", "x", "secret"))
                .isEqualTo(java.util.Map.of(
                        "DATABASE_URL", "jdbc:postgresql://127.0.0.1:5/x",
                        "DATABASE_USERNAME", "x",
                        "DATABASE_PASSWORD", "secret"));
    }

    private static boolean readyWithin(ServiceProcess service, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        do {
            if (service.isReady()) return true;
            java.util.concurrent.locks.LockSupport.parkNanos(
                    Duration.ofMillis(50).toNanos());
        } while (System.nanoTime() < deadline);
        return false;
    }
}
