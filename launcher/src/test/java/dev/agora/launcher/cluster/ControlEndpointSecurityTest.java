package dev.agora.launcher.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The control endpoint kills processes, so a web page in the developer's browser must not reach it (SECURITY.md):
 * it answers only callers with the data directory's token, refuses cross-site requests even with it, and listens on
 * loopback only. Its HTTP layer is exercised here against a cluster stand-in that notes what it was asked to do;
 * ClusterEndToEndTest drives it against a real cluster.
 */
class ControlEndpointSecurityTest {

    @TempDir
    Path dataDirectory;

    private final List<String> actions = new CopyOnWriteArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();
    private String token;
    private ControlServer server;

    @BeforeEach
    void start() {
        token = ControlToken.create(dataDirectory);
        server = ControlServer.start(new NotingCluster(actions), name -> false, 0, token);
    }

    @AfterEach
    void stop() {
        server.close();
        http.close();
    }

    @Test
    void withoutTheTokenNothingIsListedOrDone() throws Exception {
        HttpResponse<String> list = send(get("/instances"));
        HttpResponse<String> kill = send(post("/instances/catalog-1/kill"));
        HttpResponse<String> wrong = send(post("/instances/catalog-1/kill").header("Authorization", "Bearer nope"));

        for (HttpResponse<String> response : List.of(list, kill, wrong)) {
            assertThat(response.statusCode()).isEqualTo(401);
            assertThat(response.headers().firstValue("Content-Type")).contains("application/problem+json");
            assertThat(response.headers().firstValue("WWW-Authenticate"))
                    .hasValueSatisfying(value -> assertThat(value).startsWith("Bearer"));
            assertThat(response.body()).doesNotContain("catalog-1\",\"service");
        }
        assertThat(actions).isEmpty();
    }

    @Test
    void aCrossSiteRequestIsRefusedEvenWithTheToken() throws Exception {
        HttpResponse<String> otherOrigin = send(post("/instances/catalog-1/kill")
                .header("Authorization", "Bearer " + token)
                .header("Origin", "https://evil.example"));
        HttpResponse<String> otherSite = send(post("/instances/catalog-1/kill")
                .header("Authorization", "Bearer " + token)
                .header("Sec-Fetch-Site", "cross-site"));
        HttpResponse<String> sameSiteButOtherPort = send(post("/instances/catalog-1/kill")
                .header("Authorization", "Bearer " + token)
                .header("Origin", "http://127.0.0.1:1"));

        for (HttpResponse<String> response : List.of(otherOrigin, otherSite, sameSiteButOtherPort)) {
            assertThat(response.statusCode()).isEqualTo(403);
            assertThat(response.body()).contains("cross-site");
        }
        assertThat(actions).isEmpty();
    }

    @Test
    void withTheTokenItListsAndActsAlsoForItsOwnOrigin() throws Exception {
        HttpResponse<String> list = send(get("/instances").header("Authorization", "Bearer " + token));
        HttpResponse<String> kill = send(post("/instances/catalog-1/kill").header("Authorization", "Bearer " + token));
        HttpResponse<String> ownOrigin = send(post("/instances/catalog-1/freeze")
                .header("Authorization", "Bearer " + token)
                .header("Origin", "http://127.0.0.1:" + server.port())
                .header("Sec-Fetch-Site", "same-origin"));

        assertThat(list.statusCode()).isEqualTo(200);
        assertThat(list.body()).contains("\"name\":\"catalog-1\"");
        assertThat(kill.statusCode()).isEqualTo(200);
        assertThat(ownOrigin.statusCode()).isEqualTo(200);
        assertThat(actions).containsExactly("kill catalog-1", "freeze catalog-1");
    }

    @Test
    void theClientPresentsTheTokenOfTheDataDirectoryAndIsRefusedWithAnother() {
        ControlClient client = new ControlClient(
                server.port(), ControlToken.read(dataDirectory).orElseThrow());
        client.kill("catalog-1");
        assertThat(actions).containsExactly("kill catalog-1");

        ControlClient stale = new ControlClient(server.port(), "an-earlier-start's-token");
        assertThatThrownBy(() -> stale.kill("catalog-1"))
                .isInstanceOf(ControlClient.ControlException.class)
                .satisfies(e -> assertThat(((ControlClient.ControlException) e).status())
                        .isEqualTo(401));
        assertThat(actions).containsExactly("kill catalog-1");
    }

    @Test
    void theTokenIsNewEveryStartAndOnlyItsOwnerMayReadIt() throws IOException {
        Path file = dataDirectory.resolve(ControlToken.FILE_NAME);
        assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(ControlToken.read(dataDirectory)).contains(token);
        assertThat(token).hasSizeGreaterThanOrEqualTo(40);

        String next = ControlToken.create(dataDirectory);

        assertThat(next).isNotEqualTo(token);
        assertThat(ControlToken.read(dataDirectory)).contains(next);
    }

    @Test
    void itListensOnLoopbackOnly() throws Exception {
        HttpResponse<String> viaLoopback = send(get("/instances").header("Authorization", "Bearer " + token));
        assertThat(viaLoopback.statusCode()).isEqualTo(200);
        assertThat(server.address().getAddress()).isEqualTo(InetAddress.getLoopbackAddress());
    }

    private HttpRequest.Builder get(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(5))
                .GET();
    }

    private HttpRequest.Builder post(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(5))
                .POST(HttpRequest.BodyPublishers.noBody());
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Two instances that are never really started: the endpoint's answers are what is under test. */
    private record NotingCluster(List<String> actions) implements InstanceControl {

        @Override
        public List<Instance> instances() {
            return List.of(
                    new Instance("catalog-1", "catalog", 8180, 4242, "http://127.0.0.1:8180", Path.of("catalog-1.log")),
                    new Instance("order-1", "order", 8280, 4243, "http://127.0.0.1:8280", Path.of("order-1.log")));
        }

        @Override
        public void kill(String instanceName) {
            actions.add("kill " + instanceName);
        }

        @Override
        public void freeze(String instanceName) {
            actions.add("freeze " + instanceName);
        }

        @Override
        public void thaw(String instanceName) {
            actions.add("thaw " + instanceName);
        }

        @Override
        public Duration restart(String instanceName) {
            actions.add("restart " + instanceName);
            return Duration.ofSeconds(1);
        }
    }
}
