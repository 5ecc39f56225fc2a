package dev.agora.frontend.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agora.frontend.upstream.Tier;
import dev.agora.frontend.upstream.Upstream;
import io.swagger.v3.core.util.Json31;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.Paths;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Schema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.stereotype.Component;

/**
 * The routes {@link ProxyController} passes on, in this frontend's OpenAPI document as the services that own them
 * describe them: their {@code /v3/api-docs} is read when the document is asked for, their operations under the
 * passed-on prefix taken with the schemas they use, under the path a client calls here. The owner's annotations
 * (schemas, problems, {@code Access}) are the one description; nothing of it is repeated here, so it cannot drift.
 * A schema whose name this document already uses for another shape gets the owner's name in front. An owner that
 * does not answer leaves its operations out, and the document says so ({@value #MISSING} in its info).
 */
@Component
class ProxiedRoutesDocumentation implements OpenApiCustomizer {

    private static final ObjectMapper JSON = Json31.mapper();
    private static final String SCHEMAS = "#/components/schemas/";
    /** The services whose operations the document lacks, when one did not answer. */
    static final String MISSING = "x-agora-missing";

    private static final Logger log = LoggerFactory.getLogger(ProxiedRoutesDocumentation.class);

    /**
     * A service's routes under {@code prefix} there, called under {@code publicPrefix} here. Paths containing one of
     * {@code excluded} are left out: the catalog's upload route is reachable as {@code /api/books/{id}/files/{name}},
     * which streams, and its own description is this frontend's.
     */
    private record Owner(Tier tier, String prefix, String publicPrefix, String schemaPrefix, List<String> excluded) {}

    private static final List<Owner> OWNERS = List.of(
            new Owner(Tier.CATALOG, "/admin/books", "/api/admin/books", "Catalog", List.of("/files")),
            new Owner(Tier.EXCHANGE, "/api/exchange", "/api/exchange", "Exchange", List.of()));

    private final Upstream upstream;

    ProxiedRoutesDocumentation(Upstream upstream) {
        this.upstream = upstream;
    }

    @Override
    public void customise(OpenAPI openApi) {
        if (openApi.getComponents() == null) openApi.setComponents(new Components());
        if (openApi.getComponents().getSchemas() == null)
            openApi.getComponents().setSchemas(new TreeMap<>());
        if (openApi.getPaths() == null) openApi.setPaths(new Paths());
        List<String> missing = new ArrayList<>();
        for (Owner owner : OWNERS) {
            JsonNode document;
            try {
                document = documentOf(owner.tier());
            } catch (RuntimeException unreachable) {
                // The rest of the document is still worth serving (Swagger UI, the bookstore's clients); it says what
                // it lacks, and the next request asks again (the document is not cached).
                log.warn("No OpenAPI document from {}: {}", owner.tier().serviceId(), unreachable.toString());
                missing.add(owner.tier().serviceId());
                continue;
            }
            merge(openApi, owner, document);
        }
        if (!missing.isEmpty()) {
            if (openApi.getInfo() == null)
                openApi.setInfo(new Info().title("Agora").version("1"));
            openApi.getInfo()
                    .description("Incomplete: the operations of " + String.join(", ", missing)
                            + " are missing, since it did not answer; ask again later.");
            openApi.getInfo().addExtension(MISSING, missing);
        }
        requireUniqueOperationIds(openApi);
    }

    private JsonNode documentOf(Tier tier) {
        byte[] body = upstream.call(tier, () -> upstream.restClient(tier)
                .get()
                .uri("/v3/api-docs")
                .retrieve()
                .body(byte[].class));
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException("The " + tier.serviceId() + "'s OpenAPI document does not parse", e);
        }
    }

    private static void merge(OpenAPI openApi, Owner owner, JsonNode document) {
        Map<String, JsonNode> paths = new LinkedHashMap<>();
        document.path("paths").properties().forEach(entry -> {
            String path = entry.getKey();
            boolean under = path.equals(owner.prefix()) || path.startsWith(owner.prefix() + "/");
            if (under && owner.excluded().stream().noneMatch(path::contains)) {
                paths.put(owner.publicPrefix() + path.substring(owner.prefix().length()), entry.getValue());
            }
        });
        JsonNode ownerSchemas = document.path("components").path("schemas");
        Map<String, Schema> schemas = openApi.getComponents().getSchemas();
        Map<String, String> names = new LinkedHashMap<>();
        for (String name : used(paths.values(), ownerSchemas)) {
            Schema<?> ours = schemas.get(name);
            boolean same = ours == null || JSON.valueToTree(ours).equals(ownerSchemas.get(name));
            names.put(name, same ? name : owner.schemaPrefix() + name);
        }
        names.forEach((name, renamed) -> schemas.put(
                renamed, JSON.convertValue(renamed(ownerSchemas.get(name).deepCopy(), names), Schema.class)));
        paths.forEach((path, item) -> {
            if (openApi.getPaths().containsKey(path)) {
                throw new IllegalStateException(
                        path + " is described both here and by " + owner.tier().serviceId());
            }
            openApi.getPaths().addPathItem(path, JSON.convertValue(renamed(item.deepCopy(), names), PathItem.class));
        });
    }

    /** The owner's schemas the paths refer to, and those these refer to. */
    private static Set<String> used(Iterable<JsonNode> paths, JsonNode schemas) {
        Set<String> used = new LinkedHashSet<>();
        Deque<JsonNode> pending = new ArrayDeque<>();
        paths.forEach(pending::add);
        while (!pending.isEmpty()) {
            for (String name : references(pending.pop())) {
                if (schemas.has(name) && used.add(name)) pending.add(schemas.get(name));
            }
        }
        return used;
    }

    private static Set<String> references(JsonNode node) {
        Set<String> names = new HashSet<>();
        Deque<JsonNode> pending = new ArrayDeque<>(List.of(node));
        while (!pending.isEmpty()) {
            JsonNode next = pending.pop();
            JsonNode ref = next.get("$ref");
            if (ref != null && ref.isTextual() && ref.asText().startsWith(SCHEMAS)) {
                names.add(ref.asText().substring(SCHEMAS.length()));
            }
            next.forEach(pending::add);
        }
        return names;
    }

    /** {@code node} with every reference to a schema renamed as {@code names} says. */
    private static JsonNode renamed(JsonNode node, Map<String, String> names) {
        if (node instanceof ObjectNode object) {
            JsonNode ref = object.get("$ref");
            if (ref != null && ref.isTextual() && ref.asText().startsWith(SCHEMAS)) {
                String name = ref.asText().substring(SCHEMAS.length());
                object.set("$ref", TextNode.valueOf(SCHEMAS + names.getOrDefault(name, name)));
            }
        }
        node.forEach(child -> renamed(child, names));
        return node;
    }

    /** Generated clients name their methods after operation ids: two operations must never share one. */
    private static void requireUniqueOperationIds(OpenAPI openApi) {
        Map<String, String> seen = new TreeMap<>();
        openApi.getPaths().forEach((path, item) -> {
            for (Operation operation : item.readOperations()) {
                String id = operation.getOperationId();
                if (id == null) continue;
                String before = seen.putIfAbsent(id, path);
                if (before != null) {
                    throw new IllegalStateException(
                            "Operation id " + id + " is used both by " + before + " and by " + path);
                }
            }
        });
    }
}
