package dev.agora.frontend.book;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The frontend's book cache: only {@code agora.cache.enabled} is a setting; the bounds are its defaults (tests make
 * smaller caches directly).
 *
 * @param enabled off for the with/without-cache experiments ({@code AGORA_CACHE_ENABLED=false}); the small files kept
 *     in memory follow it (files.SmallFiles), so one switch leaves every read to the catalogs
 * @param maxLookups books kept at most
 * @param maxSearches topics kept at most
 * @param ttl safety net only: entries are kept fresh by pushed invalidations, this bounds the damage of a
 *     lost one
 */
@ConfigurationProperties("agora.cache")
public record CacheSettings(boolean enabled, long maxLookups, long maxSearches, Duration ttl) {

    @ConstructorBinding
    public CacheSettings(@DefaultValue("true") boolean enabled) {
        this(enabled, 10_000, 1_000, Duration.ofSeconds(60));
    }

    public static CacheSettings defaults() {
        return new CacheSettings(true);
    }
}
