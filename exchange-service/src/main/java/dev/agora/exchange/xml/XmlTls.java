package dev.agora.exchange.xml;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;

/**
 * The XML protocol's TLS: the server's own key and certificate, the certificate authorities whose client certificates
 * it accepts, and a client certificate required on every connection (its subject names the accounts the connection
 * may act for, see {@link CertificateAccounts}). TLS 1.3 and 1.2 only.
 */
public final class XmlTls {

    private XmlTls() {}

    public static SslContext serverContext(KeyManagerFactory serverKey, TrustManagerFactory clientAuthorities)
            throws SSLException {
        return SslContextBuilder.forServer(serverKey)
                .trustManager(clientAuthorities)
                .clientAuth(ClientAuth.REQUIRE)
                .protocols("TLSv1.3", "TLSv1.2")
                .build();
    }
}
