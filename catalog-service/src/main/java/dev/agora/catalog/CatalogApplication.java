package dev.agora.catalog;

import dev.agora.common.warmup.WarmUpRequests;
import java.util.List;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

@SpringBootApplication
public class CatalogApplication {

    public static void main(String[] args) {
        SpringApplication.run(CatalogApplication.class, args);
    }

    /**
     * What the catalog sends itself when warm-up is on (common's WarmingUp): lookups, searches and reservations, the
     * reservation a quantity of 0 that is refused as invalid, so nothing changes.
     */
    @Bean
    WarmUpRequests catalogWarmUp() {
        return () -> List.of(
                "GET /books/1",
                "GET /books?topic=distributed%20systems",
                "GET /internal/reservations/1",
                "POST /internal/reservations {\"orderId\": 1, \"bookId\": 1, \"quantity\": 0}");
    }
}
