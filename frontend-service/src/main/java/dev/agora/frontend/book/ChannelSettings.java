package dev.agora.frontend.book;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The push channel catalogs invalidate through ({@code agora.cache.channel.*}, {@link InvalidationChannel}).
 *
 * @param enabled off: catalogs push over HTTP only
 * @param port 0 for any free port; catalogs learn it from the answers to their HTTP pushes
 * @param maxConnections channels open at once (one per pushing catalog thread); more are refused
 */
@ConfigurationProperties("agora.cache.channel")
record ChannelSettings(
        @DefaultValue("true") boolean enabled, @DefaultValue("0") int port, @DefaultValue("256") int maxConnections) {}
