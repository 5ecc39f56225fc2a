package dev.agora.perf.stats;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Formats measured figures to three significant digits (whole numbers from 1000 up), without exponent and
 * without trailing zeros.
 */
public final class Numbers {

    private Numbers() {}

    public static String format(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) return "n/a";
        if (value == 0) return "0";
        BigDecimal exact = new BigDecimal(value);
        if (exact.abs().compareTo(BigDecimal.valueOf(1000)) >= 0) {
            return exact.setScale(0, RoundingMode.HALF_EVEN).toPlainString();
        }
        return exact.round(new MathContext(3, RoundingMode.HALF_EVEN))
                .stripTrailingZeros()
                .toPlainString();
    }
}
