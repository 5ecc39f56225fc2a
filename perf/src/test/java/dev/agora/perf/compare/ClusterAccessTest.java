package dev.agora.perf.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.agora.launcher.credentials.AccessTokens;
import dev.agora.launcher.credentials.Credentials;
import dev.agora.perf.load.Bookstore;
import dev.agora.perf.load.HttpDriver;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The three shapes of a cluster's credentials file a comparison meets, and what its buys then carry, against a
 * real HTTP server standing in for a frontend (token endpoint and {@code /api/orders}).
 */
class ClusterAccessTest {

    @TempDir
    Path directory;

    private final Frontend frontend = new Frontend();

    @AfterEach
    void stop() {
        frontend.close();
    }

    @Test
    void theFileThisTreesLauncherWritesGivesCustomerAndAdminAndBuysCarryTheCustomersToken() {
        Path file = directory.resolve(Credentials.FILE_NAME);
        Credentials written = Credentials.generate(frontend.tokenUrl());
        written.write(file);

        ClusterAccess access = ClusterAccess.read(file);

        assertThat(access.customer()).contains(written.customer());
        assertThat(access.admin()).contains(written.admin());
        assertThat(access.tokenUrl()).contains(frontend.tokenUrl());
        assertThat(buyAndTakeAuthorization(access)).isEqualTo("Bearer token-for-demo-customer");
    }

    @Test
    void aFileWithFewerKeysGivesWhatItNames() throws IOException {
        Path file = directory.resolve(Credentials.FILE_NAME);
        Files.writeString(
                file,
                "customer.client-id=shopper\ncustomer.client-secret=s3cret\ntoken-url=" + frontend.tokenUrl() + "\n");

        ClusterAccess access = ClusterAccess.read(file);

        assertThat(access.customer()).contains(new Credentials.Client("shopper", "s3cret"));
        assertThat(access.admin()).isEmpty();
        assertThat(access.describe()).contains("no restock");
        assertThat(buyAndTakeAuthorization(access)).isEqualTo("Bearer token-for-shopper");
    }

    @Test
    void noFileIsTheOpenDoorWhoseBuysGoWithoutAToken() {
        ClusterAccess access = ClusterAccess.read(directory.resolve(Credentials.FILE_NAME));

        assertThat(access).isEqualTo(ClusterAccess.OPEN_DOOR);
        assertThat(access.buysNeedToken()).isFalse();
        assertThat(buyAndTakeAuthorization(access)).isEqualTo("(none)");
        assertThat(frontend.tokenRequests).isEmpty();
    }

    @Test
    void theOpenDoorIsRestockedWithItsStaticAdminTokenAndACustomerOnlyClusterIsNot() throws IOException {
        assertThat(ClusterAccess.OPEN_DOOR.canRestock()).isTrue();
        try (HttpDriver http = new HttpDriver(1);
                AccessTokens tokens = ClusterAccess.OPEN_DOOR.tokens()) {
            assertThat(new Bookstore(http, tokens).restock(frontend.url(), 1, 5).status())
                    .isEqualTo(200);
        }
        assertThat(frontend.restockHeaders.remove()).isEqualTo("X-Admin-Token=dev-admin-token, Authorization=(none)");

        Path file = directory.resolve(Credentials.FILE_NAME);
        Files.writeString(
                file,
                "customer.client-id=shopper\ncustomer.client-secret=s3cret\ntoken-url=" + frontend.tokenUrl() + "\n");
        assertThat(ClusterAccess.read(file).canRestock()).isFalse();
    }

    @Test
    void halfAClientOrClientsWithoutATokenEndpointAreADamagedFile() throws IOException {
        Path halfClient = directory.resolve("half.properties");
        Files.writeString(halfClient, "customer.client-id=shopper\ntoken-url=http://127.0.0.1:1/oauth2/token\n");
        Path noTokenUrl = directory.resolve("no-url.properties");
        Files.writeString(noTokenUrl, "customer.client-id=shopper\ncustomer.client-secret=s3cret\n");

        assertThatThrownBy(() -> ClusterAccess.read(halfClient))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("customer.client-id without its secret");
        assertThatThrownBy(() -> ClusterAccess.read(noTokenUrl))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no token-url");
    }

    private String buyAndTakeAuthorization(ClusterAccess access) {
        try (HttpDriver http = new HttpDriver(1);
                AccessTokens tokens = access.tokens()) {
            assertThat(new Bookstore(http, tokens).buy(frontend.url(), 1, 1).status())
                    .isEqualTo(201);
        }
        return frontend.orderAuthorizations.remove();
    }

    /** {@code POST /oauth2/token} answers a token named after the client; {@code POST /api/orders} notes its header. */
    private static final class Frontend implements AutoCloseable {

        final Queue<String> tokenRequests = new ConcurrentLinkedQueue<>();
        final Queue<String> orderAuthorizations = new ConcurrentLinkedQueue<>();
        final Queue<String> restockHeaders = new ConcurrentLinkedQueue<>();
        private final HttpServer server;

        Frontend() {
            try {
                server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            server.createContext("/oauth2/token", exchange -> {
                String basic = new String(
                        java.util.Base64.getDecoder()
                                .decode(exchange.getRequestHeaders()
                                        .getFirst("Authorization")
                                        .substring("Basic ".length())),
                        StandardCharsets.UTF_8);
                String client = basic.substring(0, basic.indexOf(':'));
                tokenRequests.add(client);
                answer(exchange, 200, "{\"access_token\":\"token-for-" + client + "\",\"expires_in\":900}");
            });
            server.createContext("/api/orders", exchange -> {
                String authorization = exchange.getRequestHeaders().getFirst("Authorization");
                orderAuthorizations.add(authorization == null ? "(none)" : authorization);
                answer(exchange, 201, "{\"status\":\"CONFIRMED\"}");
            });
            server.createContext("/admin/books/1/restock", exchange -> {
                String admin = exchange.getRequestHeaders().getFirst("X-Admin-Token");
                String authorization = exchange.getRequestHeaders().getFirst("Authorization");
                restockHeaders.add("X-Admin-Token=" + admin + ", Authorization="
                        + (authorization == null ? "(none)" : authorization));
                answer(exchange, 200, "{\"id\":1,\"stock\":5}");
            });
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort();
        }

        URI tokenUrl() {
            return URI.create(url() + "/oauth2/token");
        }

        private static void answer(HttpExchange exchange, int status, String body) throws IOException {
            exchange.getRequestBody().readAllBytes();
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
