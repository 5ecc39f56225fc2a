package dev.agora.exchange;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Settings of the exchange ({@code agora.exchange.*}; environment {@code AGORA_EXCHANGE_TCP_PORT} etc.).
 *
 * @param tcpPort XML protocol port; 0 picks a free one (logged, and shown by the health endpoint)
 * @param tcpHost address the XML protocol listens on ({@code AGORA_EXCHANGE_TCP_HOST}): loopback unless set. The
 *     protocol carries no credentials, so whoever reaches the port can create accounts and trade on any of them;
 *     widen it only to a network that is trusted as a whole
 * @param maxMessageSize largest XML request accepted; the declared length is checked before reading
 * @param maxRequestChildren most children one request may hold
 * @param maxConnections XML connections served at once; more are told the server is busy
 * @param readTimeout longest wait for any single read from a client
 * @param requestDeadline longest time one whole request may take to arrive
 * @param replyTimeout longest wait for the engine before a request is answered with an error
 * @param queueCapacity commands waiting for the sequencer before new ones are refused
 * @param maxBatch most commands committed in one transaction
 * @param lockKey PostgreSQL advisory lock key that makes one instance active
 * @param lockPollInterval how often a standby tries to take the lock
 */
@ConfigurationProperties("agora.exchange")
public record ExchangeProperties(
        @DefaultValue("12345") int tcpPort,
        @DefaultValue("127.0.0.1") String tcpHost,
        @DefaultValue("1MB") DataSize maxMessageSize,
        @DefaultValue("10000") int maxRequestChildren,
        @DefaultValue("4096") int maxConnections,
        @DefaultValue("10s") Duration readTimeout,
        @DefaultValue("30s") Duration requestDeadline,
        @DefaultValue("10s") Duration replyTimeout,
        @DefaultValue("100000") int queueCapacity,
        @DefaultValue("2048") int maxBatch,
        @DefaultValue("6817391625") long lockKey,
        @DefaultValue("500ms") Duration lockPollInterval) {}
