package dev.agora.frontend.order;

import dev.agora.frontend.book.BookCache;
import dev.agora.frontend.upstream.Upstream;
import java.net.URI;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class OrderConfiguration {

    @Bean
    OrderClient orderClient(Upstream upstream, @Value("${agora.advertised-url}") URI advertisedUrl) {
        return new OrderClient(upstream, advertisedUrl);
    }

    @Bean
    PlacingOrder placingOrder(OrderClient orders, BookCache cache) {
        return new PlacingOrder(orders, cache);
    }
}
