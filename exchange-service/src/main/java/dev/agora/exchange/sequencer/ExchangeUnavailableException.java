package dev.agora.exchange.sequencer;

/**
 * The command was not applied (or its effect was not made durable), so nothing of it is visible. When
 * {@link #refusedBeforeApplying()} is true it is also certain that it never will be: the instance refused it
 * before it reached the engine, or dropped it before handing it to a commit, so a client may send the same command
 * again, here or to another instance, even a command that is not idempotent. Otherwise (a commit failed, an answer
 * timed out) the effect may still have become durable.
 */
public final class ExchangeUnavailableException extends RuntimeException {

    private final boolean refusedBeforeApplying;

    public ExchangeUnavailableException(String message) {
        this(message, false);
    }

    private ExchangeUnavailableException(String message, boolean refusedBeforeApplying) {
        super(message, null, false, false);
        this.refusedBeforeApplying = refusedBeforeApplying;
    }

    /** Refused with nothing applied and nothing that could become durable later. */
    public static ExchangeUnavailableException refused(String message) {
        return new ExchangeUnavailableException(message, true);
    }

    public boolean refusedBeforeApplying() {
        return refusedBeforeApplying;
    }
}
