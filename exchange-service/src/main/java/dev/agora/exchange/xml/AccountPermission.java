package dev.agora.exchange.xml;

import java.util.Set;

/**
 * The accounts one connection may act for: every account on a plain connection (the trusted-network protocol), and
 * on a TLS connection those its client certificate names ({@link CertificateAccounts}).
 */
@FunctionalInterface
interface AccountPermission {

    AccountPermission ANY = accountId -> true;

    boolean mayActFor(String accountId);

    static AccountPermission only(Set<String> accounts) {
        return accounts::contains;
    }
}
