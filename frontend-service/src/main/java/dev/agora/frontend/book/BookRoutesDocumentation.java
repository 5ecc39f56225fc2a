package dev.agora.frontend.book;

import dev.agora.common.api.ApiDocumentation;
import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.Paths;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import java.math.BigDecimal;
import java.util.List;
import org.springdoc.core.customizers.OpenApiCustomizer;

/**
 * The routes of {@link BookRoutes} in the OpenAPI document. Functional routes do not describe themselves the way an
 * annotated controller's signatures do; described here, each kind of route (a search, a lookup) is written once for
 * both of its paths, the public API's and the lab systems'.
 */
final class BookRoutesDocumentation implements OpenApiCustomizer {

    @Override
    public void customise(OpenAPI openApi) {
        Components components = openApi.getComponents() != null ? openApi.getComponents() : new Components();
        openApi.setComponents(components);
        Schema<?> summary = schemaOf(BookSummary.class, components);
        Schema<?> book = schemaOf(BookView.class, components);
        Paths paths = openApi.getPaths() != null ? openApi.getPaths() : new Paths();
        openApi.setPaths(paths);

        paths.addPathItem("/api/books", search("searchBooks", "Books of a topic", "query", summary));
        paths.addPathItem(
                "/search/{topic}",
                search("classicSearch", "Books of a topic (the lab systems' route)", "path", summary));
        paths.addPathItem("/api/books/{id}", lookup("lookup", "One book", book));
        paths.addPathItem("/lookup/{id}", lookup("classicLookup", "One book (the lab systems' route)", book));
    }

    private static PathItem search(String operationId, String summary, String topicIn, Schema<?> bookSummary) {
        Schema<String> topic = new StringSchema().minLength(1).maxLength(BookRoutes.MAX_TOPIC);
        return get(
                operationId,
                summary,
                new Parameter().name("topic").in(topicIn).schema(topic),
                new ArraySchema().items(bookSummary));
    }

    private static PathItem lookup(String operationId, String summary, Schema<?> book) {
        Schema<Number> id = new IntegerSchema().format("int64").minimum(BigDecimal.ONE);
        return get(operationId, summary, new Parameter().name("id").in("path").schema(id), book);
    }

    private static PathItem get(String operationId, String summary, Parameter parameter, Schema<?> answer) {
        ApiResponse ok = new ApiResponse()
                .description("OK")
                .content(new Content().addMediaType("application/json", new MediaType().schema(answer)));
        ApiResponses answers = new ApiResponses().addApiResponse("200", ok);
        answers.addApiResponse("400", new ApiResponse().description("Bad input"));
        if ("path".equals(parameter.getIn()) && "id".equals(parameter.getName())) {
            answers.addApiResponse("404", new ApiResponse().description("No such book"));
        }
        return new PathItem()
                .get(ApiDocumentation.secure(
                        new Operation()
                                .operationId(operationId)
                                .summary(summary)
                                .addTagsItem("books")
                                .addParametersItem(parameter.required(true))
                                .responses(answers),
                        List.of(),
                        ""));
    }

    /** A reference to {@code type}'s schema, which is added to the components (with those it refers to). */
    private static Schema<?> schemaOf(Class<?> type, Components components) {
        ModelConverters.getInstance().readAll(type).forEach(components::addSchemas);
        return new Schema<>().$ref("#/components/schemas/" + type.getSimpleName());
    }
}
