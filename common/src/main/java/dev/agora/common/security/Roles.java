package dev.agora.common.security;

/**
 * What a caller may be. People and programs carry roles in their token's {@code roles} claim (a user may hold
 * several); services calling each other carry the {@code internal} scope instead.
 */
public final class Roles {

    /** Buys books and sees their own orders. */
    public static final String CUSTOMER = "CUSTOMER";
    /** Owns exchange accounts and trades on them. */
    public static final String TRADER = "TRADER";
    /** Registers titles, changes prices, restocks (and, later, uploads files). */
    public static final String PUBLISHER = "PUBLISHER";
    /** Everything, including other people's orders and accounts. */
    public static final String ADMIN = "ADMIN";

    /** The token claim that lists a caller's roles, lower case: {@code ["customer","trader"]}. */
    public static final String CLAIM = "roles";

    /** The scope of service-to-service tokens, and the authority Spring Security makes of it. */
    public static final String INTERNAL_SCOPE = "internal";

    public static final String INTERNAL_AUTHORITY = "SCOPE_" + INTERNAL_SCOPE;

    private Roles() {}
}
