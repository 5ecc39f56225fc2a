package dev.agora.frontend.book;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.servlet.http.HttpServletRequest;
import org.springdoc.core.annotations.RouterOperation;
import org.springdoc.core.annotations.RouterOperations;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;
import org.springframework.web.servlet.function.support.RouterFunctionMapping;
import tools.jackson.databind.json.JsonMapper;

@Configuration(proxyBeanMethods = false)
class BookRoutesConfiguration {

    /**
     * The routes of {@link BookRoutes}, described for the OpenAPI document (an annotated controller's signatures would
     * describe themselves).
     */
    @Bean
    @RouterOperations({
        @RouterOperation(
                path = "/api/books",
                method = RequestMethod.GET,
                operation =
                        @Operation(
                                operationId = "search",
                                summary = "Books of a topic",
                                parameters =
                                        @Parameter(
                                                in = ParameterIn.QUERY,
                                                name = "topic",
                                                required = true,
                                                schema = @Schema(minLength = 1, maxLength = BookRoutes.MAX_TOPIC)),
                                responses =
                                        @ApiResponse(
                                                responseCode = "200",
                                                content =
                                                        @Content(
                                                                mediaType = "application/json",
                                                                array =
                                                                        @ArraySchema(
                                                                                schema =
                                                                                        @Schema(
                                                                                                implementation =
                                                                                                        BookSummary
                                                                                                                .class)))))),
        @RouterOperation(
                path = "/api/books/{id}",
                method = RequestMethod.GET,
                operation =
                        @Operation(
                                operationId = "lookup",
                                summary = "One book",
                                parameters =
                                        @Parameter(
                                                in = ParameterIn.PATH,
                                                name = "id",
                                                required = true,
                                                schema = @Schema(type = "integer", format = "int64", minimum = "1")),
                                responses =
                                        @ApiResponse(
                                                responseCode = "200",
                                                content =
                                                        @Content(
                                                                mediaType = "application/json",
                                                                schema = @Schema(implementation = BookView.class))))),
        @RouterOperation(
                path = "/search/{topic}",
                method = RequestMethod.GET,
                operation =
                        @Operation(
                                operationId = "classicSearch",
                                summary = "Books of a topic (the lab systems' route)",
                                parameters =
                                        @Parameter(
                                                in = ParameterIn.PATH,
                                                name = "topic",
                                                required = true,
                                                schema = @Schema(minLength = 1, maxLength = BookRoutes.MAX_TOPIC)),
                                responses =
                                        @ApiResponse(
                                                responseCode = "200",
                                                content =
                                                        @Content(
                                                                mediaType = "application/json",
                                                                array =
                                                                        @ArraySchema(
                                                                                schema =
                                                                                        @Schema(
                                                                                                implementation =
                                                                                                        BookSummary
                                                                                                                .class)))))),
        @RouterOperation(
                path = "/lookup/{id}",
                method = RequestMethod.GET,
                operation =
                        @Operation(
                                operationId = "classicLookup",
                                summary = "One book (the lab systems' route)",
                                parameters =
                                        @Parameter(
                                                in = ParameterIn.PATH,
                                                name = "id",
                                                required = true,
                                                schema = @Schema(type = "integer", format = "int64", minimum = "1")),
                                responses =
                                        @ApiResponse(
                                                responseCode = "200",
                                                content =
                                                        @Content(
                                                                mediaType = "application/json",
                                                                schema = @Schema(implementation = BookView.class)))))
    })
    RouterFunction<ServerResponse> bookRoutes(FindingBooks finding, JsonMapper json, CacheSettings settings) {
        return new BookRoutes(finding, json, settings).routes();
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
