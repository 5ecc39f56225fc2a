package dev.agora.catalog.files;

/** One node holding a copy of a blob. */
record HeldCopy(String hash, String node) {}
