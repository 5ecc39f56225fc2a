package dev.agora.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agora.local.process.ServiceProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** Real catalog processes frozen (SIGSTOP) and killed (SIGKILL) under the order service. */
@Order(3)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CatalogOutageTest extends OrderTestSupport {

    @Test
    @Order(1)
    void aBuyWhileEveryCatalogIsFrozenStaysPendingAndIsConfirmedOnceTheCatalogIsBack() {
        long bookId = newBook(5);
        String key = newKey();
        List<ServiceProcess> replicas = CatalogReplicas.get();
        Response during;
        try {
            replicas.forEach(ServiceProcess::freeze);
            during = buy(key, bookId, 1);
        } finally {
            replicas.forEach(ServiceProcess::thaw);
        }

        assertThat(during.status()).isEqualTo(503);
        assertThat(during.isProblem()).isTrue();
        assertThat(during.json().path("orderStatus").asString()).isEqualTo("PENDING");
        long orderId = during.orderId();
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(
                        () -> assertThat(getOrder(orderId).json().path("status").asString())
                                .isEqualTo("CONFIRMED"));
        Response retried = buy(key, bookId, 1);
        assertThat(retried.status()).isEqualTo(201);
        assertThat(retried.orderId()).isEqualTo(orderId);
        assertThat(stock(bookId)).isEqualTo(4);
    }

    @Test
    @Order(2)
    void concurrentBuyersSeeNoErrorWhenACatalogReplicaIsKilledUnderThem() throws Exception {
        int buyers = 8;
        int buysEach = 15;
        long bookId = newBook(1000);
        ServiceProcess victim = CatalogReplicas.get().get(1);
        CountDownLatch running = new CountDownLatch(buyers);
        List<Response> responses;
        try (ExecutorService threads = Executors.newFixedThreadPool(buyers)) {
            List<Future<List<Response>>> work = new ArrayList<>();
            for (int b = 0; b < buyers; b++) {
                work.add(threads.submit(() -> {
                    List<Response> mine = new ArrayList<>();
                    for (int i = 0; i < buysEach; i++) {
                        mine.add(buy(newKey(), bookId, 1));
                        if (i == 0) running.countDown();
                    }
                    return mine;
                }));
            }
            running.await(60, TimeUnit.SECONDS);
            victim.kill();
            responses = new ArrayList<>();
            for (Future<List<Response>> buyer : work) responses.addAll(buyer.get(120, TimeUnit.SECONDS));
        }

        assertThat(victim.isAlive()).isFalse();
        assertThat(responses).hasSize(buyers * buysEach);
        assertThat(responses).allSatisfy(r -> assertThat(r.status()).isEqualTo(201));
        assertThat(stock(bookId)).isEqualTo(1000 - buyers * buysEach);
        // Outcomes are written just after the answers.
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(ordersFor(bookId, "CONFIRMED")).isEqualTo(buyers * buysEach));
    }
}
