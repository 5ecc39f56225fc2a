package dev.agora.launcher.cluster;

import dev.agora.local.cluster.Health;
import java.util.List;
import java.util.Optional;

/**
 * Which of a cluster's exchange instances is active, from their health endpoints (local-support's {@link Health}
 * reads one instance's role).
 */
public final class ExchangeRoles {

    private ExchangeRoles() {}

    /** The index (1-based) in {@code baseUrls} of the instance that is active now; empty when none is. */
    public static Optional<Integer> active(List<String> baseUrls) {
        for (int i = 0; i < baseUrls.size(); i++) {
            if (Health.role(baseUrls.get(i)).filter("ACTIVE"::equals).isPresent()) return Optional.of(i + 1);
        }
        return Optional.empty();
    }
}
