package dev.agora.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.swagger.parser.OpenAPIParser;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The frontend's served OpenAPI document ({@code /v3/api-docs}) is valid for swagger-parser, describes every public
 * operation with a response schema and its security requirement, and is the committed {@code openapi.json} this
 * module's client is generated from: a change of the API that was not carried into that file fails here.
 */
@EnabledIfSystemProperty(named = "agora.cluster-tests", matches = "true")
class ServedDocumentTest {

    /** What the committed document names as the issuer: the local cluster's default. */
    private static final String LOCAL_ISSUER = "http://localhost:8080";

    private static final JsonMapper JSON =
            JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private static ApiCluster cluster;
    private static String served;
    private static OpenAPI document;

    @BeforeAll
    static void read() {
        cluster = ApiCluster.get();
        served = fetch();
        if (Boolean.getBoolean("agora.openapi.refresh")) writeCommitted();
        ParseOptions options = new ParseOptions();
        options.setResolve(false);
        SwaggerParseResult parsed = new OpenAPIParser().readContents(served, null, options);
        assertThat(parsed.getMessages()).as("swagger-parser's messages").isEmpty();
        document = parsed.getOpenAPI();
    }

    @Test
    void isAnOpenApi31DocumentWithEveryPublicOperation() {
        assertThat(document.getOpenapi()).startsWith("3.1");
        assertThat(
                        document.getInfo().getExtensions() == null
                                ? Map.of()
                                : document.getInfo().getExtensions())
                .as("services whose operations are missing")
                .doesNotContainKey("x-agora-missing");
        assertThat(document.getPaths().keySet())
                .contains(
                        "/api/books",
                        "/api/books/{id}",
                        "/api/orders",
                        "/api/orders/{id}",
                        "/api/raffle/winners",
                        "/api/files",
                        "/api/books/{id}/files",
                        "/api/books/{id}/files/{name}",
                        "/api/admin/books",
                        "/api/admin/books/{id}/price",
                        "/api/admin/books/{id}/restock",
                        "/api/exchange/accounts",
                        "/api/exchange/accounts/{accountId}",
                        "/api/exchange/accounts/{accountId}/orders",
                        "/api/exchange/accounts/{accountId}/orders/{orderId}",
                        "/api/exchange/symbols/{symbol}/positions",
                        "/api/exchange/symbols/{symbol}/book",
                        "/api/exchange/me");
        assertThat(document.getPaths().keySet()).as("no wildcard routes").noneMatch(path -> path.contains("*"));
    }

    @Test
    void everyPathParameterIsDeclared() {
        List<String> undeclared = new ArrayList<>();
        document.getPaths().forEach((path, item) -> operations(item).forEach((method, operation) -> {
            for (String name : path.split("/")) {
                if (!name.startsWith("{")) continue;
                String parameter = name.substring(1, name.length() - 1);
                boolean declared = operation.getParameters() != null
                        && operation.getParameters().stream()
                                .anyMatch(p -> "path".equals(p.getIn()) && parameter.equals(p.getName()));
                if (!declared) undeclared.add(method + " " + path + ": " + parameter);
            }
        }));
        assertThat(undeclared).isEmpty();
    }

    @Test
    void everyOperationHasAnIdAResponseSchemaAndProblemsForErrors() {
        List<String> missing = new ArrayList<>();
        document.getPaths().forEach((path, item) -> operations(item).forEach((method, operation) -> {
            String name = method + " " + path;
            if (operation.getOperationId() == null) missing.add(name + ": no operation id");
            boolean answers = operation.getResponses().entrySet().stream()
                    .filter(answer -> answer.getKey().startsWith("2"))
                    .anyMatch(answer -> hasSchema(answer.getValue()));
            // A HEAD answer has headers and no body.
            if (!answers && !method.equals("HEAD")) missing.add(name + ": no success answer with a schema");
            ApiResponse problem = operation.getResponses().get("default");
            if (problem == null
                    || problem.getContent() == null
                    || problem.getContent().get("application/problem+json") == null) {
                missing.add(name + ": errors are not described as problems");
            }
        }));
        assertThat(missing).isEmpty();
    }

    @Test
    void everyOperationSaysWhoMayCallItAndTokensComeFromTheIssuersTokenEndpoint() {
        SecurityScheme oauth2 = document.getComponents().getSecuritySchemes().get("oauth2");
        assertThat(oauth2.getType()).isEqualTo(SecurityScheme.Type.OAUTH2);
        assertThat(oauth2.getFlows().getClientCredentials().getTokenUrl())
                .isEqualTo(cluster.issuer() + "/oauth2/token");
        List<String> missing = new ArrayList<>();
        document.getPaths().forEach((path, item) -> operations(item).forEach((method, operation) -> {
            String name = method + " " + path;
            List<SecurityRequirement> security = operation.getSecurity();
            Object roles = operation.getExtensions() == null
                    ? null
                    : operation.getExtensions().get("x-agora-roles");
            if (security == null || security.isEmpty() || !(roles instanceof List<?> list)) {
                missing.add(name + ": no security requirement and roles");
            } else if (!list.isEmpty() && !security.getFirst().containsKey("oauth2")) {
                missing.add(name + ": needs roles " + list + " but no token");
            }
        }));
        assertThat(missing).isEmpty();
        assertThat(roles("/api/orders", "POST")).containsExactly("customer");
        assertThat(roles("/api/books/{id}", "GET")).isEmpty();
        assertThat(roles("/api/admin/books", "POST")).containsExactlyInAnyOrder("publisher", "admin");
        assertThat(roles("/api/exchange/accounts", "POST")).containsExactly("admin");
        assertThat(roles("/api/books/{id}/files/{name}", "PUT")).containsExactlyInAnyOrder("publisher", "admin");
    }

    @Test
    void isTheCommittedDocumentTheClientIsGeneratedFrom() throws IOException {
        Path committed = committed();
        JsonNode expected = asCommitted(served);
        JsonNode actual = JSON.readTree(Files.readString(committed));
        assertThat(actual)
                .withFailMessage(
                        "The frontend's OpenAPI document is not %s any more: the API changed. Refresh the"
                                + " file (the client is generated from it) with\n  ./mvnw -pl api-client verify"
                                + " -Dtest=ServedDocumentTest -Dagora.openapi.refresh=true\nand commit it.",
                        committed)
                .isEqualTo(expected);
    }

    @Test
    void isTheSameDocumentEachTimeItIsAskedFor() {
        assertThat(fetch()).isEqualTo(served);
    }

    private static Path committed() {
        return Path.of(System.getProperty("agora.openapi.spec", "openapi.json"));
    }

    /** The document as committed: without the servers (where it was fetched), the issuer as on the local cluster. */
    private static JsonNode asCommitted(String document) {
        ObjectNode committed = (ObjectNode) sorted(JSON.readTree(document.replace(cluster.issuer(), LOCAL_ISSUER)));
        committed.remove("servers");
        return committed;
    }

    /** Refreshes the committed document from the served one, before any check: -Dagora.openapi.refresh=true. */
    private static void writeCommitted() {
        try {
            Files.writeString(committed(), JSON.writeValueAsString(asCommitted(served)) + "\n");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String fetch() {
        return RestClient.create(cluster.frontend())
                .get()
                .uri("/v3/api-docs")
                .retrieve()
                .body(String.class);
    }

    private static List<String> roles(String path, String method) {
        Operation operation = operations(document.getPaths().get(path)).get(method);
        return ((List<?>) operation.getExtensions().get("x-agora-roles"))
                .stream().map(String::valueOf).toList();
    }

    private static Map<String, Operation> operations(PathItem item) {
        Map<String, Operation> operations = new java.util.TreeMap<>();
        item.readOperationsMap().forEach((method, operation) -> operations.put(method.name(), operation));
        return operations;
    }

    private static boolean hasSchema(ApiResponse answer) {
        return answer.getContent() != null
                && answer.getContent().values().stream()
                        .map(MediaType::getSchema)
                        .anyMatch(schema -> schema != null);
    }

    /** The document with every object's members in name order, so the committed file reads the same every time. */
    private static JsonNode sorted(JsonNode node) {
        if (node.isObject()) {
            ObjectNode sorted = JSON.createObjectNode();
            node.propertyNames().stream().sorted().forEach(name -> sorted.set(name, sorted(node.get(name))));
            return sorted;
        }
        if (node.isArray()) {
            var array = JSON.createArrayNode();
            node.forEach(element -> array.add(sorted(element)));
            return array;
        }
        return node;
    }
}
