package dev.agora.frontend.book;

/** How the cache took part in an answer, as named in {@code Server-Timing: cache;desc=...}. */
public enum CacheUse {
    HIT,
    MISS,
    OFF;

    String label() {
        return name().toLowerCase();
    }
}
