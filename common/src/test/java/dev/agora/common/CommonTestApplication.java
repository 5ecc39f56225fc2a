package dev.agora.common;

import dev.agora.common.problem.ProblemException;
import dev.agora.common.security.AccessRules;
import dev.agora.common.security.Roles;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Positive;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;

/** A minimal service that exercises what common adds to every Agora service. */
@SpringBootApplication
public class CommonTestApplication {

    public static final int CATALOGUE_LENGTH = 256 * 1024;

    /**
     * Rules as a service writes them: open public paths, service tokens for internal ones, admins for admin; item reads
     * are anonymous public reads, and uploads stream past the body cap.
     */
    @Bean
    AccessRules testRules() {
        return new AccessRules.Declared(
                List.of("/public/items/*"), List.of("/public/uploads"), requests -> requests.requestMatchers(
                                "/public/**")
                        .permitAll()
                        .requestMatchers("/internal/**")
                        .hasAuthority(Roles.INTERNAL_AUTHORITY)
                        .requestMatchers("/admin/**")
                        .hasRole(Roles.ADMIN));
    }

    record Item(@NotBlank String name, @Positive @Max(1000) int quantity) {}

    @RestController
    public static class Endpoints {

        /** Holds the latest {@code /public/ticker} call's second line until {@link #sendSecondTick()}. */
        private final AtomicReference<CountDownLatch> secondTick = new AtomicReference<>();

        /** Lets the latest ticker send its second line. */
        public void sendSecondTick() {
            CountDownLatch held = secondTick.get();
            if (held != null) held.countDown();
        }

        @GetMapping("/internal/ping")
        Map<String, String> internalPing() {
            return Map.of("pong", "internal");
        }

        @GetMapping("/admin/ping")
        Map<String, String> adminPing() {
            return Map.of("pong", "admin");
        }

        @GetMapping("/public/items/{id}")
        Map<String, Long> item(@PathVariable long id) {
            if (id > 100) throw ProblemException.notFound("No item " + id);
            return Map.of("id", id);
        }

        private final AtomicInteger itemsCreated = new AtomicInteger();

        /** How many items were created since start. */
        public int itemsCreated() {
            return itemsCreated.get();
        }

        @PostMapping("/public/items")
        Item create(@Valid @RequestBody Item item) {
            itemsCreated.incrementAndGet();
            return item;
        }

        /** Streams its body however long it is, as a file upload does, and says how many bytes it read. */
        @PostMapping("/public/uploads")
        Map<String, Long> upload(java.io.InputStream body) throws IOException {
            long bytes = 0;
            byte[] buffer = new byte[8192];
            for (int read; (read = body.read(buffer)) >= 0; ) bytes += read;
            return Map.of("bytes", bytes);
        }

        /** Larger than the container's response buffer, so it has to stream. */
        @GetMapping("/public/catalogue")
        ResponseEntity<String> catalogue() {
            return ResponseEntity.ok("x".repeat(CATALOGUE_LENGTH));
        }

        /**
         * Sent from another thread after the request went async: the first line is flushed while the second
         * waits for the client, so the first can only arrive if the flush went through.
         */
        @GetMapping("/public/ticker")
        ResponseBodyEmitter ticker() {
            ResponseBodyEmitter ticks = new ResponseBodyEmitter(15_000L);
            CountDownLatch second = new CountDownLatch(1);
            secondTick.set(second);
            Thread.ofPlatform().name("ticker").start(() -> {
                try {
                    ticks.send("first\n", MediaType.TEXT_PLAIN);
                    if (!second.await(10, TimeUnit.SECONDS)) throw new IOException("nobody read the first tick");
                    ticks.send("second\n", MediaType.TEXT_PLAIN);
                    ticks.complete();
                } catch (IOException | InterruptedException e) {
                    ticks.completeWithError(e);
                }
            });
            return ticks;
        }

        @GetMapping("/public/boom")
        String boom() {
            throw new IllegalStateException("secret internal detail at com.example.Secret");
        }

        /** What a client of a full HttpClient 5 pool throws (the S3 SDK wraps it in its own exception). */
        @GetMapping("/public/busy")
        String busy() {
            throw new IllegalStateException(
                    "Unable to execute HTTP request",
                    new ConnectionRequestTimeoutException("Timeout deadline: 1000 MILLISECONDS"));
        }
    }
}
