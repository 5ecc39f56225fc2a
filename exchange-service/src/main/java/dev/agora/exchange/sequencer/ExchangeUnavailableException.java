package dev.agora.exchange.sequencer;

/** The command was not applied (or its effect was not made durable), so nothing of it is visible. */
public final class ExchangeUnavailableException extends RuntimeException {

    public ExchangeUnavailableException(String message) {
        super(message, null, false, false);
    }
}
