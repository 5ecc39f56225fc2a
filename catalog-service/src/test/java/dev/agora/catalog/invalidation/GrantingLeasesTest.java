package dev.agora.catalog.invalidation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.catalog.book.BookChanged;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.cloud.client.discovery.simple.SimpleDiscoveryClient;
import org.springframework.cloud.client.discovery.simple.SimpleDiscoveryProperties;

/**
 * Whether a lease may be granted is asked on a session's listener thread while writes begin and end announcements on
 * theirs: it must answer whatever the writes do. (It once read the oldest announcement in flight in two steps, and an
 * announcement ending in between threw in the listener, which ended the session and emptied that frontend's cache.)
 */
class GrantingLeasesTest {

    @Test
    void grantingAnswersWhileAnnouncementsBeginAndEndOnOtherThreads() throws Exception {
        InvalidationProperties properties = new InvalidationProperties(true, Duration.ofSeconds(1));
        try (FrontendInvalidator invalidator = new FrontendInvalidator(
                properties,
                noFrontends(),
                () -> "token",
                HttpClient.newHttpClient(),
                Duration.ofSeconds(1),
                new SimpleMeterRegistry())) {
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            long until = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            Thread writer = Thread.ofPlatform().start(() -> {
                while (System.nanoTime() < until) invalidator.bookChanged(new BookChanged(1, 1, "t", false));
            });
            long asked = 0;
            try {
                while (System.nanoTime() < until) {
                    invalidator.grantable(0);
                    asked++;
                }
            } catch (RuntimeException failed) {
                thrown.set(failed);
            }
            writer.join();
            assertThat(thrown.get()).as("after %d answers", asked).isNull();
            assertThat(invalidator.grantable(0))
                    .as("nothing in flight: a lease may be granted")
                    .isTrue();
        }
    }

    private static DiscoveryClient noFrontends() {
        return new SimpleDiscoveryClient(new SimpleDiscoveryProperties());
    }
}
