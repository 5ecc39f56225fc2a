package dev.agora.exchange.store;

/** The database could not be read or written; whatever was being done did not become durable. */
public final class StoreUnavailableException extends RuntimeException {

    StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
