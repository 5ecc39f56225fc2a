package dev.agora.frontend.order;

import dev.agora.frontend.book.BookCache;
import dev.agora.frontend.upstream.Upstream;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class OrderConfiguration {

    @Bean
    OrderClient orderClient(Upstream upstream) {
        return new OrderClient(upstream);
    }

    @Bean
    PlacingOrder placingOrder(OrderClient orders, BookCache cache) {
        return new PlacingOrder(orders, cache);
    }
}
