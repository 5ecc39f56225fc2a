package dev.agora.common.api;

import dev.agora.common.security.AgoraSecurityProperties;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.security.OAuthFlow;
import io.swagger.v3.oas.models.security.OAuthFlows;
import io.swagger.v3.oas.models.security.Scopes;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import java.util.List;
import java.util.Locale;
import org.springdoc.core.customizers.GlobalOpenApiCustomizer;
import org.springdoc.core.customizers.GlobalOperationCustomizer;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;

/**
 * Every service's OpenAPI document ({@code /v3/api-docs}, springdoc) with what all share: the authorization server's
 * client-credentials scheme, operations' security requirements and roles ({@link Access}), RFC 9457 problems as errors.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(GlobalOpenApiCustomizer.class)
public class ApiDocumentation {

    public static final String OAUTH2 = "oauth2";
    public static final String PROBLEM = "Problem";
    /** The extension listing the roles an operation needs (empty: anyone). */
    public static final String ROLES = "x-agora-roles";

    private static final String PROBLEM_JSON = "application/problem+json";

    @Bean
    @ConditionalOnMissingBean
    OpenAPI agoraOpenApi(AgoraSecurityProperties security, @Value("${spring.application.name:agora}") String name) {
        String issuer = security.issuer();
        SecurityScheme oauth2 = new SecurityScheme()
                .type(SecurityScheme.Type.OAUTH2)
                .description("Client credentials: POST the client's id and secret (HTTP Basic) to the token URL with"
                        + " grant_type=client_credentials; the token acts for the client's user and carries that"
                        + " user's roles. Discovery: /.well-known/oauth-authorization-server under the issuer "
                        + issuer)
                .flows(new OAuthFlows()
                        .clientCredentials(new OAuthFlow()
                                .tokenUrl(issuer.replaceAll("/+$", "") + "/oauth2/token")
                                .scopes(new Scopes())));
        return new OpenAPI()
                .info(new Info().title("Agora " + name).version("1"))
                .components(new Components().addSecuritySchemes(OAUTH2, oauth2).addSchemas(PROBLEM, problemSchema()));
    }

    @Bean
    GlobalOperationCustomizer agoraOperationAccess() {
        return (operation, handler) -> {
            Access access = handler.getMethodAnnotation(Access.class);
            return access == null ? operation : secure(operation, List.of(access.value()), access.note());
        };
    }

    /** Error answers as problems, on every operation of the document (functional routes' too). */
    @Bean
    GlobalOpenApiCustomizer agoraProblems() {
        return openApi -> {
            // Added here, after springdoc has dropped the schemas nothing referred to yet.
            var schemas = openApi.getComponents().getSchemas();
            if (schemas == null || !schemas.containsKey(PROBLEM))
                openApi.getComponents().addSchemas(PROBLEM, problemSchema());
            if (openApi.getPaths() == null) return;
            openApi.getPaths().values().forEach(path -> path.readOperations().forEach(ApiDocumentation::problemsFor));
        };
    }

    /** RFC 9457's members; services add their own (a validation problem's {@code errors}). */
    static Schema<?> problemSchema() {
        return new ObjectSchema()
                .description("An RFC 9457 problem; clients switch on its stable type")
                .addProperty("type", new StringSchema().format("uri"))
                .addProperty("title", new StringSchema())
                .addProperty("status", new IntegerSchema())
                .addProperty("detail", new StringSchema())
                .addProperty("instance", new StringSchema().format("uri-reference"));
    }

    /** Sets the operation's security requirement and roles: none, anyone without a token; else a token with one. */
    public static Operation secure(Operation operation, List<String> roleNames, String note) {
        List<String> roles =
                roleNames.stream().map(role -> role.toLowerCase(Locale.ROOT)).toList();
        // An empty requirement: anyone, no token needed (a token sent is checked all the same).
        var requirement = roles.isEmpty() ? new SecurityRequirement() : new SecurityRequirement().addList(OAUTH2);
        operation.setSecurity(List.of(requirement));
        operation.addExtension(ROLES, roles);
        String who = roles.isEmpty()
                ? "Anyone, no token needed."
                : "Needs a token of a user with the role " + String.join(" or ", roles)
                        + (note.isBlank() ? "." : " (" + note + ").");
        String description = operation.getDescription();
        operation.setDescription(description == null || description.isBlank() ? who : description + "\n\n" + who);
        return operation;
    }

    /** Error answers as problems: the 4xx and 5xx answers the operation names, and a {@code default} for the others. */
    static void problemsFor(Operation operation) {
        var responses = operation.getResponses();
        if (responses == null) return;
        Content problem =
                new Content().addMediaType(PROBLEM_JSON, new MediaType().schema(new Schema<>().$ref(PROBLEM)));
        responses.forEach((status, answer) -> {
            if (status.startsWith("4") || status.startsWith("5")) answer.setContent(problem);
        });
        responses.putIfAbsent(
                "default", new ApiResponse().description("A problem (RFC 9457)").content(problem));
    }
}
