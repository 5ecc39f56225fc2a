package dev.agora.exchange;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Settings of the exchange ({@code agora.exchange.*}; environment {@code AGORA_EXCHANGE_TCP_PORT} etc. by relaxed
 * binding). Operators set where the XML protocol listens and its TLS; the rest are bounds with safe values (the
 * README's "Limits" table explains each), some of which tests and experiments tighten.
 *
 * @param tcpPort XML protocol port; 0 picks a free one (logged, and shown by the health endpoint)
 * @param tcpHost address the XML protocol listens on ({@code AGORA_EXCHANGE_TCP_HOST}): loopback unless set. The
 *     plain protocol carries no credentials, so whoever reaches the port can create accounts and trade on any of
 *     them; widen it only to a network that is trusted as a whole, or turn on {@link Tls}
 * @param readTimeout longest wait for any single read from a client
 * @param requestDeadline longest time one whole request may take to arrive
 * @param closedOrdersKept recently closed orders the engine keeps in memory for queries; older ones are read from
 *     PostgreSQL
 * @param fillsKeptPerOrder executions an open order keeps in memory; beyond that they are read from PostgreSQL
 * @param closedOrdersKeptPerAccount each account's latest closed orders the engine keeps in memory besides, however
 *     long ago they closed (memory follows accounts, not history)
 * @param leadership the lease that makes one instance active
 * @param tls TLS with client certificates for the XML protocol
 */
@ConfigurationProperties("agora.exchange")
public record ExchangeProperties(
        @DefaultValue("12345") int tcpPort,
        @DefaultValue("127.0.0.1") String tcpHost,
        @DefaultValue("10s") Duration readTimeout,
        @DefaultValue("30s") Duration requestDeadline,
        @DefaultValue("16384") int closedOrdersKept,
        @DefaultValue("8") int fillsKeptPerOrder,
        @DefaultValue("8") int closedOrdersKeptPerAccount,
        @DefaultValue Leadership leadership,
        @DefaultValue Tls tls) {

    /**
     * Largest XML request accepted; the declared length is checked before reading. 64 KB holds a batch of hundreds of
     * orders, far more than any seed client sends at once.
     */
    public DataSize maxMessageSize() {
        return DataSize.ofKilobytes(64);
    }

    /**
     * Times a standby runs its JSON API's order path before it may have to take over (the {@code api} package's
     * {@code StandbyWarmUp}): enough for the JIT to compile it, so a takeover is not served by the interpreter.
     */
    public int standbyWarmUpRounds() {
        return 300;
    }

    /** Most children one XML request may hold; a larger request is refused as a whole. */
    public int maxRequestChildren() {
        return 10_000;
    }

    /** Netty event-loop threads of the XML server: one keeps up with the single sequencer behind it. */
    public int ioThreads() {
        return 1;
    }

    /** Commands waiting for the sequencer before new ones are refused as overloaded. */
    public int queueCapacity() {
        return 10_000;
    }

    /** Most commands committed in one transaction (one group commit). */
    public int maxBatch() {
        return 2048;
    }

    /** Threads reading closed orders from PostgreSQL, each holding a pooled connection while it reads. */
    public int historyThreads() {
        return 2;
    }

    /** Reads of closed orders that may wait for a thread before more are refused as overloaded. */
    public int historyQueueCapacity() {
        return 1024;
    }

    /** Largest XML reply written; a larger one is replaced by an error. 4 MB holds a status of thousands of fills. */
    public DataSize maxReplySize() {
        return DataSize.ofMegabytes(4);
    }

    /** XML connections served at once, more are told the server is busy: far above any seed client's count. */
    public int maxConnections() {
        return 4096;
    }

    /** XML connections from one client address at once: one client cannot take every connection. */
    public int maxConnectionsPerAddress() {
        return 256;
    }

    /**
     * Reply bytes written but not yet taken by slow clients, beyond which new requests are refused as busy before
     * they are applied: 64 MB is sixteen of the largest replies, and bounds the memory slow readers can hold.
     */
    public DataSize maxPendingReplySize() {
        return DataSize.ofMegabytes(64);
    }

    /** Longest wait for the engine before a request is answered with an error; a commit takes milliseconds. */
    public Duration replyTimeout() {
        return Duration.ofSeconds(10);
    }

    /** Longest time a client may take to accept its reply before the connection is closed. */
    public Duration writeTimeout() {
        return Duration.ofSeconds(10);
    }

    /** Longest time a connection may see neither a read nor a write: an abandoned connection is closed. */
    public Duration idleTimeout() {
        return Duration.ofSeconds(60);
    }

    /**
     * The lease in PostgreSQL that makes one instance the active exchange ({@code agora.exchange.leadership.*}). A
     * frozen or unreachable leader loses it {@code ttl} after its last renewal; a killed one at once (its session
     * ends); a standby looks every 100 ms.
     *
     * @param ttl how long a lease lasts unrenewed, by the database's clock
     */
    public record Leadership(@DefaultValue("500ms") Duration ttl) {

        /** How often the leader renews: five times a {@code ttl}, so a few late renewals do not lose the lease. */
        public Duration renewEvery() {
            return ttl.dividedBy(5);
        }

        /** The lease's name (its row in {@code leader_lease}); every instance of the one exchange shares it. */
        public String lease() {
            return "exchange";
        }

        /** How often a standby looks whether the lease is free. */
        public Duration pollEvery() {
            return Duration.ofMillis(100);
        }
    }

    /**
     * TLS for the XML protocol, for deployments where its port leaves the host. Off unless a bundle is named. When on,
     * every connection must present a client certificate that the bundle's trust store trusts, and may act only for
     * the accounts its subject names ({@code UID} attributes; {@code UID=*} for all).
     *
     * @param bundle name of a Spring Boot SSL bundle ({@code spring.ssl.bundle.pem.<name>.keystore.*} holds the
     *     server's certificate and key, {@code .truststore.*} the CA that signs client certificates); empty for plain
     */
    public record Tls(@DefaultValue("") String bundle) {

        public boolean enabled() {
            return bundle != null && !bundle.isBlank();
        }
    }
}
