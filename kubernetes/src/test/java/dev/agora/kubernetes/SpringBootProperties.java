package dev.agora.kubernetes;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.Collections;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The properties Spring Boot and the libraries every service runs with declare (their configuration metadata on the
 * class path), by the environment variable each binds from: {@code management.server.port} from
 * {@code MANAGEMENT_SERVER_PORT} (relaxed binding: dots become underscores, dashes go, upper case).
 */
final class SpringBootProperties {

    private final Set<String> variables = new HashSet<>();

    /** Map-typed properties ({@code spring.ssl.bundle.pem}): any key below them binds, as a bundle's name does. */
    private final Set<String> mapPrefixes = new HashSet<>();

    SpringBootProperties() {
        JsonMapper json = JsonMapper.builder().build();
        for (String resource : new String[] {
            "META-INF/spring-configuration-metadata.json", "META-INF/additional-spring-configuration-metadata.json"
        }) {
            try {
                for (URL url : Collections.list(getClass().getClassLoader().getResources(resource))) {
                    try (InputStream in = url.openStream()) {
                        for (JsonNode property : json.readTree(in).path("properties")) {
                            String variable = variable(property.path("name").asString());
                            variables.add(variable);
                            if (property.path("type").asString().startsWith("java.util.Map<")) {
                                mapPrefixes.add(variable + "_");
                            }
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        if (variables.isEmpty()) throw new IllegalStateException("No Spring Boot configuration metadata found");
    }

    static String variable(String property) {
        return property.replace("-", "").replace('.', '_').toUpperCase(Locale.ROOT);
    }

    boolean binds(String variable) {
        return variables.contains(variable) || mapPrefixes.stream().anyMatch(variable::startsWith);
    }
}
