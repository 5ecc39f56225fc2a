package dev.agora.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.netty.handler.ssl.SslContext;
import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.ssl.DefaultSslBundleRegistry;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.pem.PemSslStoreBundle;
import org.springframework.boot.ssl.pem.PemSslStoreDetails;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * The exchange refuses to start where its XML port would be open to anyone: a plain listener beyond loopback outside
 * the {@code local} profile (the seed's protocol carries no credentials), and a TLS bundle without the CA of client
 * certificates (the JDK would fall back to its public CAs).
 */
class UnsafeXmlListenerTest {

    private static final String STRONG_PASSWORD = "Xq3v9JtP0sLw7RkZ2mYc5NhB8dFe1GaU";

    @Test
    void refusesAPlainListenerBeyondLoopbackOutsideTheLocalProfile() {
        // The real application in a production profile: the refusal comes before anything connects or listens (the
        // database URL points nowhere).
        Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(ExchangeApplication.class)
                .profiles("prod")
                .run(
                        "--spring.datasource.url=jdbc:postgresql://127.0.0.1:9/exchange",
                        "--spring.datasource.password=" + STRONG_PASSWORD,
                        "--server.port=0",
                        "--agora.exchange.tcp-port=0",
                        "--agora.exchange.tcp-host=0.0.0.0",
                        "--agora.security.authorities=http://127.0.0.1:9")
                .close());
        assertThat(failure).isNotNull();
        assertThat(failure)
                .hasMessageContaining("Refusing to start outside the 'local' profile")
                .hasMessageContaining("would listen on 0.0.0.0, beyond loopback")
                .hasMessageContaining("AGORA_EXCHANGE_TLS_BUNDLE");
    }

    @Test
    void allowsLoopbackTlsOrTheLocalProfile() {
        assertThat(guard("prod", "10.1.2.3", "")).hasMessageContaining("would listen on 10.1.2.3");
        assertThat(guard("prod", "127.0.0.1", "")).isNull();
        assertThat(guard("prod", "localhost", "")).isNull();
        assertThat(guard("prod", null, "")).as("the default: loopback").isNull();
        assertThat(guard("prod", "0.0.0.0", "exchange-xml")).isNull();
        assertThat(guard("local", "0.0.0.0", "")).isNull();
    }

    @Test
    void refusesATlsBundleWithoutATrustStore() throws Exception {
        X509Bundle authority = new CertificateBuilder()
                .subject("CN=clients CA")
                .setIsCertificateAuthority(true)
                .ecp256()
                .buildSelfSigned();
        X509Bundle server = new CertificateBuilder()
                .subject("CN=exchange")
                .addSanIpAddress("127.0.0.1")
                .addExtendedKeyUsageServerAuth()
                .ecp256()
                .buildIssuedBy(authority);
        PemSslStoreDetails key = PemSslStoreDetails.forCertificate(server.getCertificatePathPEM())
                .withPrivateKey(server.getPrivateKeyPEM());
        PemSslStoreDetails clientsCa = PemSslStoreDetails.forCertificate(authority.getCertificatePEM());
        ExchangeProperties.Tls tls = new ExchangeProperties.Tls("exchange-xml");

        Throwable failure = catchThrowable(() -> ExchangeConfiguration.xmlTls(
                tls,
                () -> new DefaultSslBundleRegistry("exchange-xml", SslBundle.of(new PemSslStoreBundle(key, null)))));
        assertThat(failure)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("SSL bundle 'exchange-xml'")
                .hasMessageContaining("has no trust store");

        SslContext withTrustStore = ExchangeConfiguration.xmlTls(
                tls,
                () -> new DefaultSslBundleRegistry(
                        "exchange-xml", SslBundle.of(new PemSslStoreBundle(key, clientsCa))));
        assertThat(withTrustStore.isServer()).isTrue();
    }

    /** The guard alone on an environment with these settings; the refusal, or null when it lets the start go on. */
    private static Throwable guard(String profile, String host, String bundle) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.setActiveProfiles(profile);
        Map<String, Object> settings = new HashMap<>();
        if (host != null) settings.put(PlainXmlOffLoopbackGuard.HOST, host);
        settings.put(PlainXmlOffLoopbackGuard.TLS_BUNDLE, bundle);
        environment.getPropertySources().addFirst(new MapPropertySource("exchange", settings));
        SpringApplication application = new SpringApplicationBuilder(ExchangeApplication.class)
                .web(WebApplicationType.NONE)
                .build();
        return catchThrowable(() -> new PlainXmlOffLoopbackGuard().postProcessEnvironment(environment, application));
    }
}
