package dev.agora.frontend.web.trade;

import dev.agora.frontend.web.PublicApi;
import dev.agora.frontend.web.SessionTokens;
import dev.agora.frontend.web.WebSettings;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.session.Session;
import org.springframework.session.SessionRepository;
import org.thymeleaf.ITemplateEngine;

@Configuration(proxyBeanMethods = false)
class TradeConfiguration {

    @Bean
    Desk desk(PublicApi api) {
        return new Desk(api);
    }

    /** Two threads run every live desk's reads; a read is a loopback call of a millisecond or two. */
    @Bean(destroyMethod = "close")
    DeskStreams deskStreams(
            Desk desk,
            SessionTokens tokens,
            SessionRepository<? extends Session> sessions,
            ITemplateEngine templates,
            WebSettings settings,
            MeterRegistry meters) {
        return new DeskStreams(
                desk,
                tokens,
                sessions,
                templates,
                settings,
                new ScheduledThreadPoolExecutor(
                        2, Thread.ofPlatform().name("desk-stream-", 0).daemon().factory()),
                meters);
    }
}
