package dev.agora.common.api;

import dev.agora.common.security.AgoraSecurityProperties;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import org.springdoc.core.customizers.GlobalOpenApiCustomizer;
import org.springdoc.core.customizers.GlobalOperationCustomizer;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;

/** Every service's OpenAPI document ({@code /v3/api-docs}) in the shape {@link ApiDocumentation} gives it. */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(GlobalOpenApiCustomizer.class)
public class ApiDocumentationAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    OpenAPI agoraOpenApi(AgoraSecurityProperties security, @Value("${spring.application.name:agora}") String name) {
        return ApiDocumentation.frame("Agora " + name, security.issuer());
    }

    /** An operation's security requirement and roles from its {@link Access}. */
    @Bean
    GlobalOperationCustomizer agoraOperationAccess() {
        return (operation, handler) -> {
            Access access = handler.getMethodAnnotation(Access.class);
            return access == null ? operation : ApiDocumentation.secure(operation, access);
        };
    }

    /** Error answers as problems, on every operation of the document (functional routes' too). */
    @Bean
    GlobalOpenApiCustomizer agoraProblems() {
        return openApi -> {
            // Added here, after springdoc has dropped the schemas nothing referred to yet.
            if (openApi.getComponents() == null) openApi.setComponents(new Components());
            if (openApi.getComponents().getSchemas() == null
                    || !openApi.getComponents().getSchemas().containsKey(ApiDocumentation.PROBLEM)) {
                openApi.getComponents().addSchemas(ApiDocumentation.PROBLEM, ApiDocumentation.problemSchema());
            }
            if (openApi.getPaths() == null) return;
            openApi.getPaths().values().forEach(path -> path.readOperations().forEach(ApiDocumentation::problemsFor));
        };
    }
}
