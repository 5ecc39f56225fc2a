package dev.agora.order;

import dev.agora.common.warmup.WarmUpRequests;
import java.util.List;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;

@SpringBootApplication
@EnableScheduling
public class OrderApplication {

    public static void main(String[] args) {
        SpringApplication.run(OrderApplication.class, args);
    }

    /**
     * What the order service sends itself when warm-up is on (common's WarmingUp): order reads and a buy of quantity
     * 0, refused as invalid, so nothing changes.
     */
    @Bean
    WarmUpRequests orderWarmUp() {
        return () ->
                List.of("GET /orders/1", "GET /orders?page=0&size=5", "POST /orders {\"bookId\": 1, \"quantity\": 0}");
    }
}
