package dev.agora.order;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.local.process.ServiceProcess;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A catalog process killed (SIGKILL) while reservations stream into it, many of them queued for its writer (group
 * commit, catalog-service/README.md "Data tier"): every reservation it answered is in the database as answered, and
 * the book's stock is exactly what the stored reservations took: a batch cut off before its commit left nothing, and
 * nothing was answered before its commit. Runs last: it leaves replica 1 dead, as {@link CatalogOutageTest} does.
 */
@Order(4)
class CatalogCrashTest extends OrderTestSupport {

    private static final String TOKEN = Tokens.service(Tokens.ORDER_CLIENT);
    private static final AtomicLong ORDER_IDS = new AtomicLong(System.currentTimeMillis() * 1_000);

    @Test
    void everyReservationAKilledCatalogAnsweredIsStoredAndTheStockMatchesTheStoredOnes() throws Exception {
        int senders = 16;
        long copies = 100_000;
        long bookId = newBook(copies);
        ServiceProcess victim = CatalogReplicas.get().get(1);
        if (!victim.isAlive()) victim.restart(Duration.ofMinutes(4));
        ConcurrentHashMap<Long, JsonNode> answered = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<Long> sent = new ConcurrentLinkedQueue<>();
        CountDownLatch warmedUp = new CountDownLatch(200);
        try (ExecutorService threads = Executors.newFixedThreadPool(senders)) {
            List<Future<?>> work = new ArrayList<>();
            for (int s = 0; s < senders; s++) {
                work.add(threads.submit(() -> {
                    for (int i = 0; i < 100_000; i++) {
                        long orderId = ORDER_IDS.incrementAndGet();
                        sent.add(orderId);
                        Response response;
                        try {
                            response = reserveAt(victim, orderId, bookId, 1 + (int) (orderId % 3));
                        } catch (RuntimeException killed) {
                            return;
                        }
                        if (response.status() == 200) {
                            answered.put(orderId, response.json());
                            warmedUp.countDown();
                        }
                    }
                }));
            }
            assertThat(warmedUp.await(60, TimeUnit.SECONDS)).isTrue();
            victim.kill();
            for (Future<?> sender : work) sender.get(60, TimeUnit.SECONDS);
        }
        List<Long> attempted = new ArrayList<>(sent);

        assertThat(victim.isAlive()).isFalse();
        assertThat(answered).hasSizeGreaterThanOrEqualTo(200);
        List<JsonNode> stored = storedReservations(attempted);
        var storedById =
                stored.stream().collect(Collectors.toMap(r -> r.path("orderId").asLong(), r -> r));
        answered.forEach((orderId, answer) -> assertThat(storedById.get(orderId))
                .as("answered reservation of order %d", orderId)
                .isEqualTo(answer));
        long taken = stored.stream()
                .filter(r -> r.path("outcome").asString().equals("RESERVED"))
                .mapToLong(r -> r.path("quantity").asLong())
                .sum();
        assertThat(stock(bookId)).as("stock after the stored reservations").isEqualTo(copies - taken);
    }

    private static Response reserveAt(ServiceProcess catalog, long orderId, long bookId, int quantity) {
        return send(HttpRequest.newBuilder(URI.create(catalog.baseUrl() + "/internal/reservations"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .header(AUTHORIZATION, TOKEN)
                .POST(HttpRequest.BodyPublishers.ofString(
                        """
                        {"orderId":%d,"bookId":%d,"quantity":%d}"""
                                .formatted(orderId, bookId, quantity))));
    }

    /** The reservations the surviving replica finds for these orders, read a page of 100 at a time. */
    private static List<JsonNode> storedReservations(List<Long> orderIds) {
        List<JsonNode> stored = new ArrayList<>();
        for (int from = 0; from < orderIds.size(); from += 100) {
            String query = orderIds.subList(from, Math.min(orderIds.size(), from + 100)).stream()
                    .map(id -> "orderId=" + id)
                    .collect(Collectors.joining("&"));
            Response page = send(HttpRequest.newBuilder(URI.create(catalog("/internal/reservations?" + query)))
                    .header(AUTHORIZATION, Tokens.service(Tokens.ORDER_CLIENT)));
            assertThat(page.status()).isEqualTo(200);
            page.json().valueStream().forEach(stored::add);
        }
        return stored;
    }
}
