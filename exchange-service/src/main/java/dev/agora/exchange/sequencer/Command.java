package dev.agora.exchange.sequencer;

import dev.agora.exchange.matching.MatchingEngine;

/** Work for the sequencer: runs on its thread, alone, against the engine; never blocks. */
@FunctionalInterface
public interface Command<R> {

    R applyTo(MatchingEngine engine);
}
