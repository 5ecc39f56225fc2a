package dev.agora.exchange.xml;

import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import javax.naming.NamingException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.security.auth.x500.X500Principal;

/**
 * Reads from a TLS client certificate the accounts its connection may act for: each {@code UID} attribute of the
 * certificate's subject names one account ({@code CN=desk-7,UID=1001,UID=1002}); {@code UID=*} names every account
 * (an operator's certificate). A subject without a {@code UID} names none: such a connection may only read errors.
 */
final class CertificateAccounts {

    static final String EVERY_ACCOUNT = "*";
    private static final String UID_OID = "0.9.2342.19200300.100.1.1";

    private CertificateAccounts() {}

    static AccountPermission of(Certificate[] peerChain) {
        if (peerChain == null || peerChain.length == 0 || !(peerChain[0] instanceof X509Certificate leaf)) {
            return accountId -> false;
        }
        Set<String> accounts = accounts(leaf.getSubjectX500Principal());
        if (accounts.contains(EVERY_ACCOUNT)) return AccountPermission.ANY;
        return AccountPermission.only(Set.copyOf(accounts));
    }

    static Set<String> accounts(X500Principal subject) {
        Set<String> accounts = new HashSet<>();
        try {
            // RFC 2253 form with UID spelled out as its OID, so no keyword table decides what it is called.
            LdapName name = new LdapName(subject.getName(X500Principal.RFC2253, Map.of(UID_OID, "UID")));
            for (Rdn rdn : name.getRdns()) {
                for (var attributes = rdn.toAttributes().getAll(); attributes.hasMore(); ) {
                    var attribute = attributes.next();
                    if (!attribute.getID().equalsIgnoreCase("UID")
                            && !attribute.getID().equals(UID_OID)) continue;
                    for (var values = attribute.getAll(); values.hasMore(); ) {
                        accounts.add(String.valueOf(values.next()));
                    }
                }
            }
        } catch (NamingException e) {
            return Set.of();
        }
        return accounts;
    }
}
