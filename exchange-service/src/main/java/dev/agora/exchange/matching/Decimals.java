package dev.agora.exchange.matching;

import java.math.BigDecimal;

/**
 * Parses the decimal numbers of requests. Only plain notation is accepted ({@code 12}, {@code -0.5},
 * {@code 3.}), no exponents, and the size is bounded, so a request can never make the engine allocate or
 * compute with absurdly large numbers ({@code 1e999999999} would otherwise be a valid BigDecimal).
 */
public final class Decimals {

    public static final int MAX_INTEGER_DIGITS = 30;
    public static final int MAX_FRACTION_DIGITS = 12;

    private Decimals() {}

    /** The exact value of {@code text} (surrounding blanks ignored), or null when it is not a plain, bounded decimal. */
    public static BigDecimal parse(String raw) {
        if (raw == null) return null;
        String text = raw.strip();
        int length = text.length();
        int i = 0;
        if (i < length && (text.charAt(i) == '-' || text.charAt(i) == '+')) i++;
        int integerDigits = 0;
        while (i < length && isDigit(text.charAt(i))) {
            i++;
            integerDigits++;
        }
        int fractionDigits = 0;
        if (i < length && text.charAt(i) == '.') {
            i++;
            while (i < length && isDigit(text.charAt(i))) {
                i++;
                fractionDigits++;
            }
        }
        if (i != length || integerDigits + fractionDigits == 0) return null;
        if (integerDigits > MAX_INTEGER_DIGITS || fractionDigits > MAX_FRACTION_DIGITS) return null;
        return new BigDecimal(text);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
