package dev.agora.exchange;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Profiles;

/**
 * Refuses to start outside the {@code local} profile when the plain XML protocol would listen beyond loopback. The
 * seed's protocol carries no credentials, so such a listener gives anyone who reaches the address full authority:
 * creating accounts, minting shares, trading on every account. Beyond loopback the port needs TLS with client
 * certificates ({@code agora.exchange.tls.bundle}). Checked before anything connects or listens, like common's
 * {@code FailClosedSecrets}; the {@code local} profile (the launcher's and the tests') may still widen a plain
 * listener, with a warning in the log.
 */
public class PlainXmlOffLoopbackGuard implements EnvironmentPostProcessor, Ordered {

    static final String HOST = "agora.exchange.tcp-host";
    static final String TLS_BUNDLE = "agora.exchange.tls.bundle";

    @Override
    public int getOrder() {
        // After the config files and the other post-processors have spoken.
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (environment.acceptsProfiles(Profiles.of("local"))) return;
        String bundle = environment.getProperty(TLS_BUNDLE, "");
        if (!bundle.isBlank()) return;
        String host = environment.getProperty(HOST, "127.0.0.1").strip();
        if (isLoopback(host)) return;
        throw new IllegalStateException("Refusing to start outside the 'local' profile: the exchange's plain XML"
                + " protocol, which carries no credentials, would listen on " + host + ", beyond loopback ("
                + HOST + "). Turn on TLS with client certificates (" + TLS_BUNDLE
                + ", AGORA_EXCHANGE_TLS_BUNDLE) or bind it to 127.0.0.1; see exchange-service/README.md.");
    }

    /** Whether every address the host names is a loopback address; an unknown name is not. */
    static boolean isLoopback(String host) {
        try {
            InetAddress[] addresses = InetAddress.getAllByName(host);
            for (InetAddress address : addresses) if (!address.isLoopbackAddress()) return false;
            return addresses.length > 0;
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
