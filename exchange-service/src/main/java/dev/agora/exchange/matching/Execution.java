package dev.agora.exchange.matching;

import java.math.BigDecimal;

/** A trade between a buy and a sell order; ids are one sequence, in the order trades happened. */
public record Execution(
        long id, long buyOrderId, long sellOrderId, String symbol, BigDecimal shares, BigDecimal price, long time) {}
