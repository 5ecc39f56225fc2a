package dev.agora.exchange.xml;

import java.util.Set;

/**
 * What one connection may do: on a plain connection everything (the trusted-network protocol); on a TLS connection
 * what its client certificate grants ({@link CertificateAccounts}): trading on the accounts its subject names, and
 * {@code <create>} (opening accounts, granting shares) only with an admin certificate.
 *
 * @param mayCreate whether {@code <create>} children may reach the engine
 * @param everyAccount whether the connection may trade on every account
 * @param accounts the accounts it may trade on besides
 */
record AccountPermission(boolean mayCreate, boolean everyAccount, Set<String> accounts) {

    static final AccountPermission ANY = new AccountPermission(true, true, Set.of());
    static final AccountPermission NONE = new AccountPermission(false, false, Set.of());

    AccountPermission {
        accounts = Set.copyOf(accounts);
    }

    boolean mayActFor(String accountId) {
        return everyAccount || accounts.contains(accountId);
    }
}
