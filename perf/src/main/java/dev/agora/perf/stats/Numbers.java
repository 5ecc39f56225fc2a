package dev.agora.perf.stats;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/** Formats measured figures to three significant digits, without exponent and without trailing zeros. */
public final class Numbers {

    private Numbers() {}

    public static String format(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) return "n/a";
        if (value == 0) return "0";
        BigDecimal rounded = new BigDecimal(value).round(new MathContext(3, RoundingMode.HALF_EVEN));
        if (rounded.abs().compareTo(BigDecimal.valueOf(1000)) >= 0) {
            rounded = rounded.setScale(0, RoundingMode.HALF_EVEN);
        }
        return rounded.stripTrailingZeros().toPlainString();
    }
}
