package dev.agora.kubernetes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/** The objects of the Kustomize base ({@code kubernetes/base/*.yaml}), as plain maps. */
final class Manifests {

    /** Tests run with the module folder, {@code kubernetes/}, as working directory. */
    static final Path ROOT = Path.of("").toAbsolutePath();

    private final List<Map<String, Object>> objects = new ArrayList<>();

    static Manifests base() {
        Manifests manifests = new Manifests();
        try (Stream<Path> files = Files.list(ROOT.resolve("base"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml"))
                    .filter(f -> !f.getFileName().toString().equals("kustomization.yaml"))
                    .sorted()
                    .toList()) {
                for (Object document : new Yaml(new LoaderOptions()).loadAll(Files.readString(file))) {
                    if (document instanceof Map<?, ?> object) manifests.objects.add(cast(object));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return manifests;
    }

    Optional<Map<String, Object>> find(String kind, String name) {
        return objects.stream()
                .filter(o -> kind.equals(o.get("kind")) && name.equals(at(o, "metadata", "name")))
                .findFirst();
    }

    Map<String, Object> get(String kind, String name) {
        return find(kind, name)
                .orElseThrow(() -> new AssertionError("No " + kind + " " + name + " in kubernetes/base"));
    }

    /** The ConfigMap's data. */
    Map<String, String> configMap(String name) {
        return cast(at(get("ConfigMap", name), "data"));
    }

    /** The first container of a Deployment's or StatefulSet's pod template. */
    Map<String, Object> container(String workloadName) {
        Map<String, Object> workload = find("Deployment", workloadName)
                .or(() -> find("StatefulSet", workloadName))
                .orElseThrow(() -> new AssertionError("No workload " + workloadName + " in kubernetes/base"));
        List<Map<String, Object>> containers = cast(at(workload, "spec", "template", "spec", "containers"));
        return containers.getFirst();
    }

    static Object at(Object node, String... path) {
        for (String key : path) {
            if (!(node instanceof Map<?, ?> map)) return null;
            node = map.get(key);
        }
        return node;
    }

    @SuppressWarnings("unchecked")
    static <T> T cast(Object value) {
        return (T) value;
    }
}
