package dev.agora.common.client;

/**
 * Whether a call may be repeated on another replica after a failure whose effect is unknown (a timeout or
 * a reset connection after the request was sent, or a 5xx answer). A call that never reached a replica
 * (connection refused, connect timeout) is always safe to send elsewhere.
 */
public enum CallSafety {
    /** Reads, and writes that carry an idempotency key: any failure may be retried on another replica. */
    IDEMPOTENT,
    /** Writes without an idempotency key: retried only when the request provably never left this host. */
    NOT_IDEMPOTENT
}
