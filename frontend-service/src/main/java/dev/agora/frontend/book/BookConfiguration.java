package dev.agora.frontend.book;

import dev.agora.frontend.upstream.Upstream;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(CacheSettings.class)
class BookConfiguration {

    @Bean
    BookCache bookCache(CacheSettings settings) {
        return new BookCache(settings);
    }

    @Bean(destroyMethod = "close")
    PauseWatch pauseWatch(BookCache cache, CacheSettings settings) {
        return new PauseWatch(cache, settings.pauseThreshold()).start();
    }

    @Bean
    FindingBooks findingBooks(BookCache cache, Upstream upstream) {
        return new FindingBooks(cache, new CatalogClient(upstream));
    }
}
