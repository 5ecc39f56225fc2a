package dev.agora.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agora.common.process.ServiceProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
    void buysKeepSucceedingWhenACatalogReplicaIsKilled() {
        long bookId = newBook(100);
        ServiceProcess victim = CatalogReplicas.get().get(1);
        assertThat(buy(newKey(), bookId, 1).status()).isEqualTo(201);

        victim.kill();
        List<Response> afterKill = new ArrayList<>();
        for (int i = 0; i < 20; i++) afterKill.add(buy(newKey(), bookId, 1));

        assertThat(afterKill).allSatisfy(r -> assertThat(r.status()).isEqualTo(201));
        assertThat(stock(bookId)).isEqualTo(100 - 1 - 20);
        assertThat(ordersFor(bookId, "CONFIRMED")).isEqualTo(21);
    }
}
