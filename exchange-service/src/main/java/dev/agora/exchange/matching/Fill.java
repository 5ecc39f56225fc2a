package dev.agora.exchange.matching;

import java.math.BigDecimal;

/** One execution as seen from one order: shares (unsigned), the price, seconds since the epoch. */
public record Fill(BigDecimal shares, BigDecimal price, long time) {}
