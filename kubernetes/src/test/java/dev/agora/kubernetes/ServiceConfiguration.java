package dev.agora.kubernetes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * A service's own configuration as it runs outside local runs: its {@code application.yml} and every profile file but
 * {@code application-local.yml}, read from the module's sources.
 */
final class ServiceConfiguration {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)(?::([^}$]*))?");

    private final String module;
    private final String text;
    private final Map<String, Object> properties = new LinkedHashMap<>();

    private ServiceConfiguration(String module, String text) {
        this.module = module;
        this.text = text;
    }

    static ServiceConfiguration of(String module) {
        Path resources = Manifests.ROOT.resolveSibling(module).resolve("src/main/resources");
        StringBuilder text = new StringBuilder();
        ServiceConfiguration configuration;
        try (Stream<Path> files = Files.list(resources)) {
            for (Path file : files.filter(f -> f.getFileName().toString().matches("application(-.+)?\\.ya?ml"))
                    .filter(f -> !f.getFileName().toString().startsWith("application-local."))
                    .sorted()
                    .toList()) {
                text.append(Files.readString(file)).append('\n');
            }
            configuration = new ServiceConfiguration(module, text.toString());
            Path main = resources.resolve("application.yml");
            // Every document but one for the local profile alone (application.yml's "!local" one counts).
            for (Object root : new Yaml(new LoaderOptions()).loadAll(Files.readString(main))) {
                Map<String, Object> document = new HashMap<>();
                configuration.flattenInto(document, "", root);
                if (!"local".equals(document.get("spring.config.activate.on-profile"))) {
                    configuration.properties.putAll(document);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return configuration;
    }

    String module() {
        return module;
    }

    /**
     * Whether an environment variable of this name is read: by a {@code ${NAME...}} placeholder, or by Spring Boot's
     * relaxed binding of a property the service's configuration names ({@code agora.files.layout} from {@code
     * AGORA_FILES_LAYOUT}, {@code springdoc.api-docs.enabled} from {@code SPRINGDOC_API_DOCS_ENABLED}: dots become
     * underscores, dashes go or become underscores, upper case).
     */
    boolean readsVariable(String name) {
        Matcher matcher = PLACEHOLDER.matcher(text);
        while (matcher.find()) {
            if (matcher.group(1).equals(name)) return true;
        }
        return properties.keySet().stream()
                .anyMatch(property -> SpringBootProperties.variable(property).equals(name)
                        || property.replace('-', '_')
                                .replace('.', '_')
                                .toUpperCase(Locale.ROOT)
                                .equals(name));
    }

    /** The default a placeholder {@code ${NAME:default}} gives, when the configuration has one. */
    Optional<String> defaultOf(String name) {
        Matcher matcher = PLACEHOLDER.matcher(text);
        while (matcher.find()) {
            if (matcher.group(1).equals(name) && matcher.group(2) != null) return Optional.of(matcher.group(2));
        }
        return Optional.empty();
    }

    /** A property of application.yml ({@code a.b.c}), as written there. */
    Object property(String name) {
        return properties.get(name);
    }

    private void flattenInto(Map<String, Object> into, String prefix, Object node) {
        if (node instanceof Map<?, ?> map) {
            map.forEach(
                    (key, value) -> flattenInto(into, prefix.isEmpty() ? key.toString() : prefix + "." + key, value));
        } else {
            into.put(prefix, node);
        }
    }
}
