package dev.agora.common.warmup;

import java.util.List;

/** A service's warm-up requests ({@link WarmingUp}): code, not a setting, since only it knows which change nothing. */
@FunctionalInterface
public interface WarmUpRequests {

    /**
     * {@code METHOD /path} with an optional JSON body after a space; each must change nothing (reads, or writes the
     * service rejects as invalid), since warm-up repeats them thousands of times.
     */
    List<String> requests();
}
