package dev.agora.exchange.matching;

/** Why the engine refused a command. The numeric codes are stable: clients and logs may rely on them. */
public enum Rejection {
    INVALID_ACCOUNT_ID(101, "account id must be 1 to 100 decimal digits"),
    ACCOUNT_EXISTS(102, "account already exists"),
    INVALID_BALANCE(103, "balance must be a non-negative decimal"),
    UNKNOWN_ACCOUNT(104, "account does not exist"),
    INVALID_SYMBOL(201, "symbol must be 1 to 32 ASCII letters or digits"),
    INVALID_SHARES(202, "shares must be a positive decimal"),
    INVALID_AMOUNT(301, "amount must be a non-zero decimal"),
    INVALID_LIMIT(302, "limit must be a positive decimal"),
    INSUFFICIENT_FUNDS(303, "insufficient funds"),
    INSUFFICIENT_SHARES(304, "insufficient shares"),
    UNKNOWN_ORDER(401, "order does not exist"),
    FOREIGN_ORDER(402, "order belongs to another account"),
    NOTHING_OPEN(403, "order has no open shares"),
    /** The order's executions would not fit into one reply ({@code ExchangeProperties#maxReplySize}). */
    TOO_MANY_EXECUTIONS(404, "order has too many executions for one reply"),
    /** The connection's TLS client certificate does not name the account. */
    ACCOUNT_NOT_PERMITTED(105, "account is not named by this connection's certificate"),
    /** Over TLS, {@code <create>} (accounts and shares) needs an admin certificate; trading certificates only trade. */
    CREATE_NOT_PERMITTED(106, "creating accounts and shares needs an admin certificate");

    private final int code;
    private final String message;

    Rejection(int code, String message) {
        this.code = code;
        this.message = message;
    }

    public int code() {
        return code;
    }

    public String message() {
        return message;
    }
}
