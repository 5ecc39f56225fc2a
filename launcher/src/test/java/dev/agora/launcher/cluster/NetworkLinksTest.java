package dev.agora.launcher.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agora.launcher.toxiproxy.ToxiproxyServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The links of a cluster through a real Toxiproxy server (no cluster started): which proxies a cluster gets, what its
 * instances are told, and that a partition, a one-way partition and healing do to a connection what they say.
 */
class NetworkLinksTest {

    private ToxiproxyServer toxiproxy;
    private NetworkLinks links;
    private ServerSocket upstream;
    private final AtomicInteger requests = new AtomicInteger();
    private ClusterSpec spec;

    @TempDir
    Path logs;

    @BeforeEach
    void startToxiproxyAndAPeer() throws IOException {
        assumeTrue(
                ToxiproxyServer.locate().isPresent(),
                "Toxiproxy's server is not installed: run .ci/install-toxiproxy.sh");
        toxiproxy = ToxiproxyServer.start(logs.resolve("toxiproxy.log"));
        links = new NetworkLinks(toxiproxy.api());
        // A peer standing in for catalog-1: the offset puts catalog-1's port where it listens.
        for (int offset = 21_000; upstream == null && offset < 40_000; offset += 1_000) {
            try {
                upstream = new ServerSocket(8180 + offset, 50, InetAddress.getLoopbackAddress());
                spec = ClusterSpec.defaults().withPortOffset(offset);
            } catch (IOException busy) {
                // Try the next offset.
            }
        }
        Thread.ofVirtual().start(this::answerPings);
    }

    @AfterEach
    void stop() throws IOException {
        if (upstream != null) upstream.close();
        if (toxiproxy != null) toxiproxy.close();
    }

    @Test
    void everyCallerGetsAProxyOfItsOwnForEachPeerAndItsDatabase() {
        links.open(spec, 5432);

        assertThat(links.from("frontend-1"))
                .extracting(Link::to)
                .containsExactly(
                        "catalog-1", "catalog-2", "order-1", "order-2", "exchange-1", "exchange-2", "postgres");
        assertThat(links.from("catalog-2"))
                .extracting(Link::to)
                .containsExactly("frontend-1", "frontend-2", "postgres");
        assertThat(links.from("order-1")).extracting(Link::to).containsExactly("catalog-1", "catalog-2", "postgres");
        assertThat(links.from("exchange-2")).extracting(Link::to).containsExactly("postgres");
        assertThat(links.to("postgres")).hasSize(8);
        assertThat(links.links()).hasSize(28);
        assertThat(links.link("order-2", "catalog-1").upstream()).isEqualTo("127.0.0.1:" + (8180 + spec.portOffset()));
    }

    @Test
    void instancesAreToldTheirLinksAddressesAndKeepTheTokenKeysDirect() {
        links.open(spec, 5432);
        Map<String, String> env = new LinkedHashMap<>();
        env.put("CATALOG_INSTANCES", "direct");
        env.put("DATABASE_URL", "jdbc:postgresql://localhost:5432/catalog");
        links.route(Tier.CATALOG, 2, spec, env);

        assertThat(env.get("FRONTEND_INSTANCES"))
                .isEqualTo(links.link("catalog-2", "frontend-1").url() + ","
                        + links.link("catalog-2", "frontend-2").url());
        assertThat(env.get("CATALOG_INSTANCES"))
                .as("a catalog calls no catalog through a link")
                .isEqualTo("direct");
        assertThat(env.get("DATABASE_URL"))
                .isEqualTo("jdbc:postgresql://127.0.0.1:"
                        + links.link("catalog-2", "postgres").listenPort() + "/catalog");
        int frontend1 = 8080 + spec.portOffset();
        assertThat(env.get("AGORA_SECURITY_AUTHORITIES"))
                .isEqualTo("http://127.0.0.1:" + frontend1 + ",http://127.0.0.1:" + (frontend1 + 1));
    }

    @Test
    void aPartitionSilencesTheLinkBothWaysAndHealingRestoresIt() throws IOException {
        links.open(spec, 5432);
        Link link = links.link("frontend-1", "catalog-1");
        assertThat(ping(link)).isEqualTo("pong");

        links.partition(link);
        int before = requests.get();
        assertThatThrownBy(() -> ping(link)).isInstanceOf(SocketTimeoutException.class);
        assertThat(requests.get()).as("nothing reached the peer").isEqualTo(before);
        assertThat(ping(links.link("frontend-2", "catalog-1")))
                .as("another caller's link to the same peer")
                .isEqualTo("pong");

        links.heal(link);
        assertThat(ping(link)).isEqualTo("pong");
    }

    @Test
    void aOneWayPartitionDeliversRequestsAndDropsTheirAnswers() throws IOException, InterruptedException {
        links.open(spec, 5432);
        Link link = links.link("order-1", "catalog-1");

        links.dropReplies(link);
        int before = requests.get();
        assertThatThrownBy(() -> ping(link)).isInstanceOf(SocketTimeoutException.class);
        assertThat(requests.get()).as("the peer got the request").isEqualTo(before + 1);

        links.heal(link);
        assertThat(ping(link)).isEqualTo("pong");
    }

    private String ping(Link link) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", link.listenPort()), 1_000);
            socket.setSoTimeout(1_000);
            OutputStream out = socket.getOutputStream();
            out.write("ping\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String line = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine();
            if (line == null) throw new IOException("closed without an answer");
            return line;
        }
    }

    private void answerPings() {
        while (!upstream.isClosed()) {
            try {
                Socket connection = upstream.accept();
                Thread.ofVirtual().start(() -> {
                    try (connection) {
                        BufferedReader in = new BufferedReader(
                                new InputStreamReader(connection.getInputStream(), StandardCharsets.US_ASCII));
                        // Answers every line and keeps the connection open, as a database or an HTTP server does.
                        while (in.readLine() != null) {
                            requests.incrementAndGet();
                            connection.getOutputStream().write("pong\n".getBytes(StandardCharsets.US_ASCII));
                        }
                    } catch (IOException e) {
                        // The proxy closed it.
                    }
                });
            } catch (IOException closed) {
                return;
            }
        }
    }
}
