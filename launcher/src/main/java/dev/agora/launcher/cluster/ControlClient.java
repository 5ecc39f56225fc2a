package dev.agora.launcher.cluster;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Fault injection against a cluster started by the launcher ({@code java -jar launcher/target/agora.jar}) in another
 * process, through its control endpoint on 127.0.0.1 (8390 plus the port offset), with the token the launcher wrote
 * into its data directory ({@link ControlToken}).
 */
public final class ControlClient implements InstanceControl {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /**
     * Longer than the cluster's own wait for a restarted instance (an exchange that must lead again waits twice), so
     * that a slow restart on a busy machine ends in the cluster's answer, ready or a clear timeout, rather than in
     * this client giving up first while the instance is still coming up.
     */
    private static final Duration RESTART_TIMEOUT =
            Cluster.READY_TIMEOUT.multipliedBy(2).plusMinutes(1);

    private final URI base;
    private final String token;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** @param token the cluster's control token; null sends none (a launcher older than the token answers anyway) */
    public ControlClient(int controlPort, String token) {
        this.base = URI.create("http://127.0.0.1:" + controlPort);
        this.token = token;
    }

    /**
     * The control endpoint of a cluster started with {@code --port-offset offset} on {@code dataDirectory}, with
     * the token found there (none when there is none yet: it is written before the endpoint opens).
     */
    public static ControlClient of(Path dataDirectory, int offset) {
        return new ControlClient(8390 + offset, ControlToken.read(dataDirectory).orElse(null));
    }

    @Override
    public List<Instance> instances() {
        String body = send(HttpRequest.newBuilder(base.resolve("/instances"))
                .timeout(Duration.ofSeconds(5))
                .GET());
        return List.of(JSON.readValue(body, InstanceStatus[].class)).stream()
                .map(InstanceStatus::toInstance)
                .toList();
    }

    /** The control endpoint's raw JSON view of the instances, including alive and frozen flags. */
    public String instancesJson() {
        return send(HttpRequest.newBuilder(base.resolve("/instances"))
                .timeout(Duration.ofSeconds(5))
                .GET());
    }

    @Override
    public void kill(String instanceName) {
        act(instanceName, "kill", Duration.ofSeconds(15));
    }

    @Override
    public void freeze(String instanceName) {
        act(instanceName, "freeze", Duration.ofSeconds(15));
    }

    @Override
    public void thaw(String instanceName) {
        act(instanceName, "thaw", Duration.ofSeconds(15));
    }

    @Override
    public Duration restart(String instanceName) {
        JsonNode result = act(instanceName, "restart", RESTART_TIMEOUT);
        return Duration.ofMillis(result.path("startToReadyMillis").asLong());
    }

    private JsonNode act(String instanceName, String action, Duration timeout) {
        String body = send(HttpRequest.newBuilder(base.resolve("/instances/" + instanceName + "/" + action))
                .timeout(timeout)
                .POST(HttpRequest.BodyPublishers.noBody()));
        return JSON.readTree(body);
    }

    private String send(HttpRequest.Builder request) {
        if (token != null) request.header("Authorization", "Bearer " + token);
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                String detail = JSON.readTree(response.body()).path("detail").asString(response.body());
                throw new ControlException(response.statusCode(), detail);
            }
            return response.body();
        } catch (IOException e) {
            throw new ControlException(0, "No cluster control endpoint at " + base + " (" + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ControlException(0, "Interrupted");
        }
    }

    /** The control endpoint refused a command or was not reachable (status 0). */
    public static final class ControlException extends RuntimeException {
        private final int status;

        ControlException(int status, String message) {
            super(message);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }
}
