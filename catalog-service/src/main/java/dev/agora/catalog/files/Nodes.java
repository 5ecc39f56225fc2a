package dev.agora.catalog.files;

import java.util.List;
import java.util.function.IntSupplier;

/**
 * The catalog nodes files are spread over and which of them this one is. Node names are their base URLs, as the
 * index records them and the frontends reach them.
 */
final class Nodes {

    private final List<String> configured;
    private final String configuredSelf;
    private final IntSupplier localPort;
    private final int copies;
    private volatile Placement placement;

    Nodes(List<String> configured, String configuredSelf, int copies, IntSupplier localPort) {
        this.configured = configured;
        this.configuredSelf = configuredSelf;
        this.copies = copies;
        this.localPort = localPort;
    }

    String self() {
        return configuredSelf.isEmpty() ? "http://127.0.0.1:" + localPort.getAsInt() : configuredSelf;
    }

    List<String> all() {
        return configured.isEmpty() ? List.of(self()) : configured;
    }

    /** How many nodes must hold each file: the configured copies, or every node when there are fewer. */
    int copies() {
        return Math.min(copies, all().size());
    }

    /** Every node, in the order the file's hash prefers them. */
    List<String> preference(String hash) {
        Placement current = placement;
        if (current == null) placement = current = new Placement(all());
        return current.preference(hash);
    }
}
