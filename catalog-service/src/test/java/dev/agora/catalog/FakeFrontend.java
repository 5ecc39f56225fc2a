package dev.agora.catalog;

import dev.agora.common.security.AgoraSecurityProperties;
import dev.agora.common.security.Roles;
import dev.agora.common.security.testing.TestIssuer;
import jakarta.websocket.CloseReason;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.HandshakeResponse;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.Session;
import jakarta.websocket.server.HandshakeRequest;
import jakarta.websocket.server.ServerContainer;
import jakarta.websocket.server.ServerEndpointConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.websocket.server.WsSci;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.JwtValidators;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stands for a frontend's invalidation endpoint: a real WebSocket server (embedded Tomcat) at
 * {@code /internal/cache/invalidations} that verifies the bearer token of every handshake as the real frontend does
 * (signed by the issuer, unexpired, scope {@code internal}), refusing the session otherwise, then records every
 * invalidation with the token's subject and acknowledges it. It never asks for a lease. Tests may make it
 * {@linkplain #silence() stop acknowledging} or {@linkplain #dropSessions() drop its sessions}.
 */
final class FakeFrontend implements AutoCloseable {

    /** @param caller the subject of the verified service token the session was opened with */
    record Received(JsonNode body, String caller) {}

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String CALLER = "caller";

    private final Tomcat tomcat;
    private final NimbusJwtDecoder tokens;
    private final ConcurrentLinkedQueue<Received> received = new ConcurrentLinkedQueue<>();
    private final AtomicInteger refused = new AtomicInteger();
    private final AtomicInteger sessionsOpened = new AtomicInteger();
    private final Set<Session> sessions = ConcurrentHashMap.newKeySet();
    private volatile boolean silent;
    /** Acknowledgements held back while {@code holding}; both guarded by the list. */
    private final List<Runnable> held = new ArrayList<>();

    private boolean holding;

    private FakeFrontend(TestIssuer issuer) {
        this.tokens =
                NimbusJwtDecoder.withJwkSetUri(issuer.url() + "/oauth2/jwks").build();
        tokens.setJwtValidator(JwtValidators.createDefaultWithIssuer(AgoraSecurityProperties.DEFAULT_ISSUER));
        this.tomcat = new Tomcat();
    }

    static FakeFrontend start(TestIssuer issuer) {
        FakeFrontend frontend = new FakeFrontend(issuer);
        try {
            frontend.startServer();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (LifecycleException e) {
            throw new IllegalStateException(e);
        }
        return frontend;
    }

    private void startServer() throws IOException, LifecycleException {
        tomcat.setBaseDir(Files.createTempDirectory("fake-frontend").toString());
        tomcat.setHostname("127.0.0.1");
        tomcat.setPort(0);
        tomcat.getConnector().setProperty("address", "127.0.0.1");
        Context context = tomcat.addContext("", null);
        context.addServletContainerInitializer(new WsSci(), null);
        // Filters (Tomcat's WebSocket upgrade is one) only run for a request some servlet is mapped to.
        Tomcat.addServlet(context, "nothing", new jakarta.servlet.http.HttpServlet() {});
        context.addServletMappingDecoded("/", "nothing");
        tomcat.start();
        ServerContainer container =
                (ServerContainer) context.getServletContext().getAttribute(ServerContainer.class.getName());
        try {
            container.addEndpoint(ServerEndpointConfig.Builder.create(
                            Invalidations.class, "/internal/cache/invalidations")
                    .configurator(new ServerEndpointConfig.Configurator() {
                        @Override
                        @SuppressWarnings("unchecked")
                        public <T> T getEndpointInstance(Class<T> endpointClass) {
                            return (T) new Invalidations();
                        }

                        @Override
                        public void modifyHandshake(
                                ServerEndpointConfig config, HandshakeRequest request, HandshakeResponse response) {
                            List<String> authorization = request.getHeaders().get("Authorization");
                            String header =
                                    authorization == null || authorization.isEmpty() ? null : authorization.getFirst();
                            String caller = header != null && header.startsWith("Bearer ")
                                    ? serviceCalling(header.substring("Bearer ".length()))
                                    : null;
                            config.getUserProperties().put(CALLER, caller == null ? "" : caller);
                        }
                    })
                    .build());
        } catch (jakarta.websocket.DeploymentException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One catalog's session. */
    private final class Invalidations extends Endpoint {

        @Override
        public void onOpen(Session session, EndpointConfig config) {
            String caller = (String) config.getUserProperties().get(CALLER);
            if (caller == null || caller.isEmpty()) {
                refused.incrementAndGet();
                closeQuietly(session, new CloseReason(CloseReason.CloseCodes.VIOLATED_POLICY, "unauthorized"));
                return;
            }
            sessions.add(session);
            sessionsOpened.incrementAndGet();
            session.addMessageHandler(String.class, (MessageHandler.Whole<String>) text -> {
                JsonNode message = JSON.readTree(text);
                if (!"invalidate".equals(message.path("type").asString(""))) return;
                received.add(new Received(message, caller));
                if (silent) return;
                Runnable acknowledge =
                        () -> acknowledge(session, message.path("seq").asLong());
                synchronized (held) {
                    if (holding) {
                        held.add(acknowledge);
                        return;
                    }
                }
                acknowledge.run();
            });
        }

        /**
         * Synchronized on the session: released acknowledgements go out on the test's thread while the next one goes
         * out on the session's, and Tomcat's basic remote refuses a second writer ({@code wrongState}) by closing the
         * session, which the catalog then reads as a frontend gone and resends to.
         */
        private void acknowledge(Session session, long seq) {
            synchronized (session) {
                try {
                    session.getBasicRemote().sendText("{\"type\":\"ack\",\"seq\":" + seq + "}");
                } catch (IOException closed) {
                    // the catalog went away
                }
            }
        }

        @Override
        public void onClose(Session session, CloseReason reason) {
            sessions.remove(session);
        }
    }

    /** The subject of a valid service token (scope {@code internal}); null for any other token. */
    private String serviceCalling(String token) {
        try {
            Jwt jwt = tokens.decode(token);
            // A space-separated string (RFC 8693) or a list, as Spring Authorization Server writes it.
            Object scope = jwt.getClaims().get("scope");
            List<String> scopes = scope instanceof Collection<?> list
                    ? list.stream().map(String::valueOf).toList()
                    : List.of(String.valueOf(scope).split(" "));
            return scopes.contains(Roles.INTERNAL_SCOPE) ? jwt.getSubject() : null;
        } catch (JwtException invalid) {
            return null;
        }
    }

    /** Sessions refused for a missing or invalid token. */
    int refused() {
        return refused.get();
    }

    int sessionsOpened() {
        return sessionsOpened.get();
    }

    /** From now on invalidations are recorded but not acknowledged: a frozen or cut-off frontend. */
    void silence() {
        silent = true;
    }

    void acknowledgeAgain() {
        silent = false;
    }

    /** From now on acknowledgements are held back (a slow frontend) until {@link #releaseAcknowledgements()}. */
    void holdAcknowledgements() {
        synchronized (held) {
            holding = true;
        }
    }

    /** Sends the acknowledgements held back, and acknowledges at once again. */
    void releaseAcknowledgements() {
        List<Runnable> release;
        synchronized (held) {
            holding = false;
            release = new ArrayList<>(held);
            held.clear();
        }
        release.forEach(Runnable::run);
    }

    /** Closes every open session, as a frontend that restarted would. */
    void dropSessions() {
        for (Session session : sessions) {
            closeQuietly(session, new CloseReason(CloseReason.CloseCodes.GOING_AWAY, "restarting"));
        }
    }

    String url() {
        return "http://127.0.0.1:" + tomcat.getConnector().getLocalPort();
    }

    List<Received> receivedFor(long bookId) {
        return received.stream()
                .filter(r -> r.body().path("bookId").asLong() == bookId)
                .toList();
    }

    private static void closeQuietly(Session session, CloseReason reason) {
        try {
            session.close(reason);
        } catch (IOException ignored) {
            // closed already
        }
    }

    @Override
    public void close() {
        try {
            tomcat.stop();
            tomcat.destroy();
        } catch (LifecycleException e) {
            throw new IllegalStateException(e);
        }
    }
}
