package dev.agora.exchange.xml;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.exchange.history.OrderHistory;
import dev.agora.exchange.matching.StoredOrders;
import dev.agora.exchange.sequencer.Sequencer;
import dev.agora.exchange.store.ExchangeStore;
import dev.agora.exchange.store.leader.LeaseSettings;
import dev.agora.exchange.support.XmlClient;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The XML server on its own (no engine behind it): connection bound and the not-active answer. */
class ConnectionLimitTest {

    private static XmlProtocolServer server(int maxConnections) {
        // Never started: the sequencer refuses every command, which is all these tests need behind the socket.
        Sequencer idle = new Sequencer(new ExchangeStore(null, null, LeaseSettings.of("exchange")), () -> 0, 16, 16);
        return new XmlProtocolServer(
                new XmlProtocolServer.Settings(
                        "127.0.0.1",
                        0,
                        1024,
                        64 * 1024,
                        100,
                        maxConnections,
                        maxConnections,
                        1 << 20,
                        5_000,
                        10_000,
                        1_000,
                        5_000,
                        30_000,
                        1,
                        50,
                        null),
                idle,
                new OrderHistory(StoredOrders.NONE, 100, 1, 16));
    }

    @Test
    void connectionsBeyondTheLimitAreToldTheServerIsBusy() throws Exception {
        try (XmlProtocolServer server = server(2)) {
            XmlClient client = XmlClient.local(server.start());
            List<Socket> held = new ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    Socket socket = client.connect();
                    socket.getOutputStream().write("100\n<cre".getBytes(StandardCharsets.US_ASCII));
                    held.add(socket);
                }
                // Let the acceptor hand both held connections to their threads before the third arrives.
                Thread.sleep(200);
                assertThat(client.send("<create/>"))
                        .isEqualTo("<results><error>server busy, try again</error></results>");
            } finally {
                for (Socket socket : held) socket.close();
            }
            // Slots come back when connections end.
            awaitAnswer(client);
        }
    }

    @Test
    void aStandbyAnswersThatTheExchangeIsNotActive() {
        try (XmlProtocolServer server = server(4)) {
            XmlClient client = XmlClient.local(server.start());
            assertThat(client.send("<create><account id=\"1\" balance=\"1\"/></create>"))
                    .isEqualTo("<results><error>exchange is not active</error></results>");
        }
    }

    private static void awaitAnswer(XmlClient client) throws InterruptedException {
        String reply = "";
        for (int attempt = 0; attempt < 50; attempt++) {
            reply = client.send("<create/>");
            if (!reply.contains("busy")) break;
            Thread.sleep(100);
        }
        assertThat(reply).isEqualTo("<results><error>exchange is not active</error></results>");
    }
}
