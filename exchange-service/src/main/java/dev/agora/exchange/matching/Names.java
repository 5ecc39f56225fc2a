package dev.agora.exchange.matching;

/** The shapes of account ids and symbols. Ids are strings: {@code 0123} and {@code 123} are different. */
public final class Names {

    public static final int MAX_ACCOUNT_ID_LENGTH = 100;
    public static final int MAX_SYMBOL_LENGTH = 32;

    private Names() {}

    public static boolean isAccountId(String id) {
        if (id == null || id.isEmpty() || id.length() > MAX_ACCOUNT_ID_LENGTH) return false;
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c < '0' || c > '9') return false;
        }
        return true;
    }

    public static boolean isSymbol(String symbol) {
        if (symbol == null || symbol.isEmpty() || symbol.length() > MAX_SYMBOL_LENGTH) return false;
        for (int i = 0; i < symbol.length(); i++) {
            char c = symbol.charAt(i);
            boolean alphanumeric = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
            if (!alphanumeric) return false;
        }
        return true;
    }
}
