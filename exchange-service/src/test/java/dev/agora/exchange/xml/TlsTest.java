package dev.agora.exchange.xml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agora.exchange.support.InTestExchange;
import dev.agora.exchange.support.XmlClient;
import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The XML protocol over TLS with client certificates, against a real in-test exchange over real sockets, with
 * certificates made here: a CA, the server's certificate, and client certificates whose subjects name the accounts
 * (UID attributes) their connections may trade on, or make them admins ({@code OU=exchange-admin}), the only ones
 * that may create accounts and shares. Without a certificate the CA signed, nothing gets through.
 */
class TlsTest {

    private static X509Bundle authority;
    private static X509Bundle admin;
    private static X509Bundle desk;
    private static X509Bundle operator;
    private static X509Bundle stranger;
    private static InTestExchange exchange;

    @BeforeAll
    static void start() throws Exception {
        authority = new CertificateBuilder()
                .subject("CN=Agora exchange clients CA")
                .setIsCertificateAuthority(true)
                .ecp256()
                .buildSelfSigned();
        X509Bundle server = new CertificateBuilder()
                .subject("CN=exchange")
                .addSanDnsName("localhost")
                .addSanIpAddress("127.0.0.1")
                .addExtendedKeyUsageServerAuth()
                .ecp256()
                .buildIssuedBy(authority);
        admin = client("CN=exchange-admin-1,OU=exchange-admin", authority);
        desk = client("CN=desk-7,UID=5001,UID=5002,UID=5010", authority);
        operator = client("CN=operator,UID=*", authority);
        X509Bundle otherAuthority = new CertificateBuilder()
                .subject("CN=Someone else's CA")
                .setIsCertificateAuthority(true)
                .ecp256()
                .buildSelfSigned();
        stranger = client("CN=stranger,UID=5001", otherAuthority);
        InTestExchange.Limits defaults = InTestExchange.Limits.defaults();
        exchange = new InTestExchange(
                "exchange_tls",
                new InTestExchange.Limits(
                        defaults.maxConnections(),
                        defaults.maxConnectionsPerAddress(),
                        defaults.maxPendingReplyBytes(),
                        Duration.ofSeconds(3),
                        defaults.writeTimeout(),
                        XmlTls.serverContext(server.toKeyManagerFactory(), authority.toTrustManagerFactory())),
                null);
    }

    @AfterAll
    static void stop() {
        if (exchange != null) exchange.close();
    }

    private static X509Bundle client(String subject, X509Bundle issuer) throws Exception {
        return new CertificateBuilder()
                .subject(subject)
                .addExtendedKeyUsageClientAuth()
                .ecp256()
                .buildIssuedBy(issuer);
    }

    @Test
    void aTradingCertificateCannotCreateAccountsOrShares() throws Exception {
        String refused = "creating accounts and shares needs an admin certificate";
        // Not even for the accounts it names, nor with the operator's every-account certificate.
        assertThat(send(
                        desk,
                        "<create><account id=\"5010\" balance=\"1000000\"/>"
                                + "<symbol sym=\"MINT\"><account id=\"5010\">1000</account></symbol></create>"))
                .isEqualTo("<results><error id=\"5010\">" + refused + "</error>" + "<error sym=\"MINT\" id=\"5010\">"
                        + refused + "</error></results>");
        assertThat(send(operator, "<create><account id=\"5011\" balance=\"5\"/></create>"))
                .isEqualTo("<results><error id=\"5011\">" + refused + "</error></results>");
        // Nothing changed: 5010 and 5011 do not exist.
        assertThat(send(
                        desk,
                        "<transactions id=\"5010\"><order sym=\"MINT\" amount=\"-1\" limit=\"1\"/></transactions>"))
                .isEqualTo(
                        "<results><error sym=\"MINT\" amount=\"-1\" limit=\"1\">account does not exist</error></results>");
        assertThat(send(operator, "<transactions id=\"5011\"><query id=\"1\"/></transactions>"))
                .isEqualTo("<results><error id=\"1\">account does not exist</error></results>");

        // Once an admin opened 5010, the desk trades on it but still cannot mint itself shares there.
        assertThat(send(admin, "<create><account id=\"5010\" balance=\"10\"/></create>"))
                .isEqualTo("<results><created id=\"5010\"/></results>");
        assertThat(send(desk, "<create><symbol sym=\"MINT\"><account id=\"5010\">1000</account></symbol></create>"))
                .isEqualTo("<results><error sym=\"MINT\" id=\"5010\">" + refused + "</error></results>");
        assertThat(send(
                        desk,
                        "<transactions id=\"5010\"><order sym=\"MINT\" amount=\"-1\" limit=\"1\"/></transactions>"))
                .isEqualTo(
                        "<results><error sym=\"MINT\" amount=\"-1\" limit=\"1\">insufficient shares</error></results>");
        assertThat(send(
                        desk,
                        "<transactions id=\"5010\"><order sym=\"MINT\" amount=\"3\" limit=\"4\"/></transactions>"))
                .as("the balance is the admin's 10, not the desk's million: a buy of 12 is refused")
                .isEqualTo(
                        "<results><error sym=\"MINT\" amount=\"3\" limit=\"4\">insufficient funds</error></results>");
    }

    @Test
    void anAdminCertificateCreatesAndTradingCertificatesTradeOnTheAccountsTheyName() throws Exception {
        assertThat(send(
                        admin,
                        "<create><account id=\"5001\" balance=\"1000\"/><account id=\"5003\" balance=\"50\"/>"
                                + "<symbol sym=\"TLS\"><account id=\"5001\">10</account><account id=\"5003\">10</account>"
                                + "</symbol></create>"))
                .isEqualTo("<results><created id=\"5001\"/><created id=\"5003\"/>"
                        + "<created sym=\"TLS\" id=\"5001\"/><created sym=\"TLS\" id=\"5003\"/></results>");
        String opened = send(
                desk, "<transactions id=\"5001\"><order sym=\"TLS\" amount=\"-2\" limit=\"5\"/>" + "</transactions>");
        assertThat(opened).startsWith("<results><opened sym=\"TLS\" amount=\"-2\" limit=\"5\" id=\"");

        // An operator's certificate names every account; the desk may still not trade on one it does not name.
        assertThat(send(
                        desk,
                        "<transactions id=\"5003\"><order sym=\"TLS\" amount=\"1\" limit=\"5\"/>"
                                + "<query id=\"1\"/></transactions>"))
                .isEqualTo("<results><error sym=\"TLS\" amount=\"1\" limit=\"5\">account is not named by this"
                        + " connection's certificate</error><error id=\"1\">account is not named by this connection's"
                        + " certificate</error></results>");
        // Nothing of that reached the engine: 5003 still has its whole balance to spend.
        assertThat(send(
                        operator,
                        "<transactions id=\"5003\"><order sym=\"TLS\" amount=\"10\" limit=\"5\"/>" + "</transactions>"))
                .contains("<opened ");
    }

    @Test
    void noCertificateOrAnotherAuthoritysCertificateGetsNothing() throws Exception {
        assertThatThrownBy(() -> send(null, "<create><account id=\"5002\" balance=\"1\"/></create>"))
                .isInstanceOf(IOException.class);
        assertThatThrownBy(() -> send(stranger, "<create><account id=\"5002\" balance=\"1\"/></create>"))
                .isInstanceOf(IOException.class);
        // A client speaking plain TCP to the TLS port gets no XML either.
        try (Socket plain = XmlClient.local(exchange.port()).connect()) {
            plain.getOutputStream().write(XmlClient.frame("<create><account id=\"5002\" balance=\"1\"/></create>"));
            String reply;
            try {
                reply = new String(plain.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            } catch (IOException reset) {
                reply = "";
            }
            assertThat(reply).doesNotContain("<results>");
        }
        // None of them created 5002; an admin can.
        assertThat(send(admin, "<create><account id=\"5002\" balance=\"1\"/></create>"))
                .isEqualTo("<results><created id=\"5002\"/></results>");
    }

    /** One request over TLS with {@code certificate} as the client's (none when null); the reply to end of stream. */
    private static String send(X509Bundle certificate, String xml) throws Exception {
        TrustManagerFactory trust = authority.toTrustManagerFactory();
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(
                certificate == null ? null : certificate.toKeyManagerFactory().getKeyManagers(),
                trust.getTrustManagers(),
                null);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", exchange.port())) {
            socket.setSoTimeout(10_000);
            socket.startHandshake();
            socket.getOutputStream().write(XmlClient.frame(xml));
            socket.getOutputStream().flush();
            String reply = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (reply.isEmpty()) throw new IOException("closed without a reply");
            return reply;
        }
    }
}
