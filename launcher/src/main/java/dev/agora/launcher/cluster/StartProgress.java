package dev.agora.launcher.cluster;

/**
 * What a cluster start reports while it runs, one line per step or instance: PostgreSQL, the service jars, each
 * tier's AOT cache, each instance ("waiting", "starting", "ready", "standing by", "failed"), and the check that the
 * frontends reach every tier.
 */
@FunctionalInterface
public interface StartProgress {

    /** Nothing is shown (tests, experiments: they log instead). */
    StartProgress NONE = (step, state, done) -> {};

    /**
     * @param step e.g. "postgres", "catalog-1", "aot catalog"
     * @param state what it is doing or became, e.g. "starting", "ready in 12.3 s"
     * @param done whether the step has finished (successfully or not)
     */
    void update(String step, String state, boolean done);
}
