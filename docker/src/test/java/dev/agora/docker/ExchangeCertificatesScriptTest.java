package dev.agora.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.security.auth.x500.X500Principal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docker/secrets/make-exchange-certs.sh, run as a real process with OpenSSL into a temporary folder: what it makes is
 * what compose's SSL bundle reads (a chain, a PKCS#8 key, the clients' CA), the server's certificate names the hosts
 * clients reach, and the client certificates say what the exchange lets them do (admin, or one account).
 */
class ExchangeCertificatesScriptTest {

    @TempDir
    Path folder;

    private static int make(Path into) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(
                        "bash",
                        DockerDirectory.file("secrets/make-exchange-certs.sh").toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("EXCHANGE_CERTS_DIR", into.toString());
        Process process = builder.start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("script finished").isTrue();
        return process.exitValue();
    }

    @Test
    void makesTheBundleFilesAndClientCertificatesTheExchangeExpects() throws Exception {
        assumeTrue(new ProcessBuilder("openssl", "version").start().waitFor() == 0, "openssl is installed");
        Path into = folder.resolve("exchange-xml");
        assertThat(make(into)).isZero();

        X509Certificate ca = certificate(into.resolve("clients-ca.crt"));
        X509Certificate server = certificate(into.resolve("server.crt"));
        X509Certificate admin = certificate(into.resolve("admin.crt"));
        X509Certificate desk = certificate(into.resolve("desk-1001.crt"));
        for (X509Certificate issued : List.of(server, admin, desk)) issued.verify(ca.getPublicKey());
        assertThat(ca.getBasicConstraints()).isNotNegative();
        assertThat(server.getSubjectAlternativeNames())
                .extracting(name -> (Object) name.get(1))
                .contains((Object) "exchange-1", "exchange-2", "edge", "localhost", "127.0.0.1");
        assertThat(server.getExtendedKeyUsage()).contains("1.3.6.1.5.5.7.3.1");
        assertThat(admin.getSubjectX500Principal().getName(X500Principal.RFC2253))
                .contains("OU=exchange-admin");
        assertThat(desk.getSubjectX500Principal().getName(X500Principal.RFC2253))
                .contains("UID=1001")
                .doesNotContain("OU=exchange-admin");
        assertThat(admin.getExtendedKeyUsage()).contains("1.3.6.1.5.5.7.3.2");

        // The server's key is PKCS#8 PEM (what a PEM SSL bundle reads) and belongs to its certificate.
        PrivateKey key = pkcs8(into.resolve("server.key"));
        Signature signer = Signature.getInstance("SHA256withECDSA");
        signer.initSign(key);
        signer.update(new byte[] {1, 2, 3});
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance("SHA256withECDSA");
        verifier.initVerify(server.getPublicKey());
        verifier.update(new byte[] {1, 2, 3});
        assertThat(verifier.verify(signature)).isTrue();

        // A second run refuses to replace the certificates the exchanges and clients already use.
        byte[] before = Files.readAllBytes(into.resolve("clients-ca.crt"));
        assertThat(make(into)).isNotZero();
        assertThat(Files.readAllBytes(into.resolve("clients-ca.crt"))).isEqualTo(before);
    }

    private static X509Certificate certificate(Path file) throws Exception {
        return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(Files.readAllBytes(file)));
    }

    private static PrivateKey pkcs8(Path file) throws Exception {
        String pem = Files.readString(file, StandardCharsets.US_ASCII);
        assertThat(pem).startsWith("-----BEGIN PRIVATE KEY-----");
        String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        return KeyFactory.getInstance("EC")
                .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
    }
}
