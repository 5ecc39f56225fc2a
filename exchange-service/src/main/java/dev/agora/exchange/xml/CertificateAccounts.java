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
 * Reads from a TLS client certificate what its connection may do. Each {@code UID} attribute of the certificate's
 * subject names one account it may trade on ({@code CN=desk-7,UID=1001,UID=1002}); {@code UID=*} names every account
 * (an operator's certificate). A subject without a {@code UID} names none. Only a subject with the organizational
 * unit {@code OU=exchange-admin} may {@code <create>} (open accounts, grant shares), for any account: a trading
 * certificate minting its own balance and shares would let it sell what nobody paid for. The CA that signs client
 * certificates decides who gets that unit, as it decides the accounts.
 */
final class CertificateAccounts {

    static final String EVERY_ACCOUNT = "*";
    /** The organizational unit ({@code OU}) of a subject that may {@code <create>}. */
    static final String ADMIN_UNIT = "exchange-admin";

    private static final String UID_OID = "0.9.2342.19200300.100.1.1";
    private static final String OU_OID = "2.5.4.11";

    private CertificateAccounts() {}

    static AccountPermission of(Certificate[] peerChain) {
        if (peerChain == null || peerChain.length == 0 || !(peerChain[0] instanceof X509Certificate leaf)) {
            return AccountPermission.NONE;
        }
        X500Principal subject = leaf.getSubjectX500Principal();
        Set<String> accounts = values(subject, "UID", UID_OID);
        boolean admin = values(subject, "OU", OU_OID).contains(ADMIN_UNIT);
        return new AccountPermission(admin, accounts.contains(EVERY_ACCOUNT), accounts);
    }

    /** The values of one attribute type anywhere in the subject, by its keyword or its OID. */
    private static Set<String> values(X500Principal subject, String keyword, String oid) {
        Set<String> values = new HashSet<>();
        try {
            // RFC 2253 form with UID spelled out as its OID, so no keyword table decides what it is called.
            LdapName name = new LdapName(subject.getName(X500Principal.RFC2253, Map.of(UID_OID, "UID")));
            for (Rdn rdn : name.getRdns()) {
                for (var attributes = rdn.toAttributes().getAll(); attributes.hasMore(); ) {
                    var attribute = attributes.next();
                    if (!attribute.getID().equalsIgnoreCase(keyword)
                            && !attribute.getID().equals(oid)) continue;
                    for (var each = attribute.getAll(); each.hasMore(); ) {
                        values.add(String.valueOf(each.next()));
                    }
                }
            }
        } catch (NamingException e) {
            return Set.of();
        }
        return values;
    }
}
