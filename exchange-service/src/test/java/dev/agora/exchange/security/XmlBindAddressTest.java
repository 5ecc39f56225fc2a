package dev.agora.exchange.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agora.exchange.support.ExchangeServiceTest;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.junit.jupiter.api.Test;

/**
 * The XML protocol carries no credentials, so it listens on loopback unless told otherwise (the shared test
 * exchange sets no {@code agora.exchange.tcp-host}): the seed's protocol works there, and the port is bound to that
 * one address, not to every interface.
 */
class XmlBindAddressTest extends ExchangeServiceTest {

    @Test
    void listensOnLoopbackByDefault() {
        InetSocketAddress bound = xmlServer.boundAddress();
        assertThat(bound.getAddress().getHostAddress()).isEqualTo("127.0.0.1");
        assertThat(xml.send("<create><account id=\"1\" balance=\"x\"/></create>"))
                .isEqualTo("<results><error id=\"1\">balance must be a non-negative decimal</error></results>");
    }

    /**
     * A listener on every interface (0.0.0.0) would also answer on 127.0.0.2, which Linux routes to the loopback
     * device like 127.0.0.1; one bound to 127.0.0.1 alone refuses it. (No address beyond loopback is tried.)
     */
    @Test
    void isNotBoundToEveryInterface() throws Exception {
        InetAddress otherLoopback = InetAddress.getByName("127.0.0.2");
        assertThatThrownBy(() -> {
                    try (Socket socket = new Socket()) {
                        socket.connect(new InetSocketAddress(otherLoopback, xmlServer.port()), 2_000);
                    }
                })
                .as("connecting to 127.0.0.2:" + xmlServer.port())
                .isInstanceOf(ConnectException.class);
    }
}
