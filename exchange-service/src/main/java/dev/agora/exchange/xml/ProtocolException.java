package dev.agora.exchange.xml;

/** A request that cannot be understood as a whole (framing or XML); the reply is one {@code <error>}. */
final class ProtocolException extends Exception {

    ProtocolException(String message) {
        super(message, null, false, false);
    }
}
