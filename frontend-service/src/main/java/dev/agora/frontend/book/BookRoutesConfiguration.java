package dev.agora.frontend.book;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;
import org.springframework.web.servlet.function.support.RouterFunctionMapping;
import tools.jackson.databind.json.JsonMapper;

@Configuration(proxyBeanMethods = false)
class BookRoutesConfiguration {

    @Bean
    RouterFunction<ServerResponse> bookRoutes(FindingBooks finding, JsonMapper json, CacheSettings settings) {
        return new BookRoutes(finding, json, settings).routes();
    }

    /** The routes in the OpenAPI document: functional routes do not describe themselves. */
    @Bean
    BookRoutesDocumentation bookRoutesDocumentation() {
        return new BookRoutesDocumentation();
    }

    /**
     * The routes again, in a handler mapping asked before every other: Spring MVC's own mapping of functional routes
     * comes after Spring Boot's actuator endpoint mappings, and a lookup's path, with no endpoint of its own there,
     * was tested against each of their patterns first. It holds only these four routes, so it takes nothing from
     * another mapping; a request they do not match (another method, another path) goes on as before. The routes only
     * read, so any other method passes without the functional request that matching a route builds first (about as
     * much as the rest of a buy's handler look-up).
     */
    @Bean
    RouterFunctionMapping bookRoutesFirst(RouterFunction<ServerResponse> bookRoutes) {
        var mapping = new RouterFunctionMapping(bookRoutes) {
            @Override
            protected Object getHandlerInternal(HttpServletRequest request) throws Exception {
                String method = request.getMethod();
                if (!HttpMethod.GET.matches(method) && !HttpMethod.HEAD.matches(method)) return null;
                return super.getHandlerInternal(request);
            }
        };
        mapping.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return mapping;
    }
}
