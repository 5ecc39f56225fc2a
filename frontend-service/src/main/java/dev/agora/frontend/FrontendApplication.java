package dev.agora.frontend;

import dev.agora.common.warmup.WarmUpRequests;
import java.util.List;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

@SpringBootApplication
public class FrontendApplication {

    public static void main(String[] args) {
        SpringApplication.run(FrontendApplication.class, args);
    }

    /**
     * What the frontend sends itself when warm-up is on (common's WarmingUp): catalog reads, an order read, and buys
     * of quantity 0 through the API and the seed's route, refused as invalid, so nothing changes.
     */
    @Bean
    WarmUpRequests frontendWarmUp() {
        return () -> List.of(
                "GET /api/books/1",
                "GET /api/books?topic=distributed%20systems",
                "GET /api/orders/1",
                "POST /api/orders {\"bookId\": 1, \"quantity\": 0}",
                "POST /buy/1?quantity=0");
    }
}
