package dev.agora.frontend.book;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The frontend's book cache ({@code agora.cache.*}).
 *
 * @param enabled off for the with/without-cache experiments ({@code AGORA_CACHE_ENABLED=false})
 * @param maxLookups books kept at most
 * @param maxSearches topics kept at most
 * @param ttl safety net only: entries are kept fresh by pushed invalidations, this bounds the damage of a
 *     lost one
 */
@ConfigurationProperties("agora.cache")
public record CacheSettings(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("10000") long maxLookups,
        @DefaultValue("1000") long maxSearches,
        @DefaultValue("60s") Duration ttl) {

    public static CacheSettings defaults() {
        return new CacheSettings(true, 10_000, 1_000, Duration.ofSeconds(60));
    }
}
