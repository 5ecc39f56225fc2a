package dev.agora.frontend.book;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.ConcurrentWebSocketSessionDecorator;
import org.springframework.web.socket.handler.TextWebSocketHandler;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The catalogs' invalidation sessions: a WebSocket per catalog replica at {@code /internal/cache/invalidations}
 * (opened with the catalog's service token, which Spring Security checks on the handshake as on any internal call).
 * Each message is one JSON object (docs/internal-api.md):
 *
 * <ul>
 *   <li>catalog to frontend {@code {"type":"invalidate","seq":7,"bookId":1,"version":5,"searchAffected":false}},
 *       applied to the cache before it is answered {@code {"type":"ack","seq":7}};
 *   <li>frontend to catalog {@code {"type":"renew","seq":3}} every {@value #RENEW_EVERY_MILLIS} ms, answered
 *       {@code {"type":"lease","seq":3,"millis":1000}} while the catalog counts this frontend in ({@link CatalogLeases}).
 * </ul>
 *
 * <p>Anything else (malformed JSON, another type, a non-positive id or version, more than
 * {@value #MAX_MESSAGE_BYTES} bytes) closes the session and changes nothing. A session whose catalog has granted no
 * renewal for two lease lengths is closed too: a frozen or dead catalog must not keep this frontend from using its
 * cache; the catalog opens a new session when it can talk again.
 */
final class InvalidationSocket extends TextWebSocketHandler implements AutoCloseable {

    static final String PATH = "/internal/cache/invalidations";
    /** A file name of 255 characters is up to 765 bytes of UTF-8, a topic up to 300. */
    static final int MAX_MESSAGE_BYTES = 2048;

    static final long RENEW_EVERY_MILLIS = 100;
    /** A session whose acknowledgements cannot be sent within this is too slow to keep. */
    private static final int SEND_TIME_LIMIT_MILLIS = 1_000;

    private static final int SEND_BUFFER_BYTES = 64 * 1024;

    private static final Logger log = LoggerFactory.getLogger(InvalidationSocket.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private record Open(WebSocketSession session, CatalogLeases.Lease lease) {}

    private final BookCache cache;
    private final CatalogLeases leases;
    private final Map<String, Open> open = new ConcurrentHashMap<>();
    private final AtomicLong refused = new AtomicLong();
    /** One thread, one periodic task (asking for renewals): its queue never holds more. */
    private final ScheduledThreadPoolExecutor renewals = new ScheduledThreadPoolExecutor(
            1, Thread.ofPlatform().name("lease-renewals").daemon().factory());

    InvalidationSocket(BookCache cache, CatalogLeases leases) {
        this.cache = cache;
        this.leases = leases;
        renewals.scheduleWithFixedDelay(this::renewAll, RENEW_EVERY_MILLIS, RENEW_EVERY_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** The renewals' thread, for its metrics. */
    ScheduledThreadPoolExecutor renewals() {
        return renewals;
    }

    @Override
    public void afterConnectionEstablished(WebSocketSession session) {
        session.setTextMessageSizeLimit(MAX_MESSAGE_BYTES);
        WebSocketSession sending =
                new ConcurrentWebSocketSessionDecorator(session, SEND_TIME_LIMIT_MILLIS, SEND_BUFFER_BYTES);
        CatalogLeases.Lease lease = leases.opened(session.getId());
        open.put(session.getId(), new Open(sending, lease));
        log.info("Catalog {} opened an invalidation session", session.getRemoteAddress());
        renew(open.get(session.getId()));
    }

    @Override
    protected void handleTextMessage(WebSocketSession session, TextMessage message) throws IOException {
        Open catalog = open.get(session.getId());
        if (catalog == null) return;
        String refusal = handle(catalog, message.getPayload());
        if (refusal != null) {
            refused.incrementAndGet();
            session.close(CloseStatus.BAD_DATA.withReason(refusal));
        }
    }

    /** Applies one message; returns why it is refused, or null. */
    private String handle(Open catalog, String payload) throws IOException {
        JsonNode message;
        try {
            message = JSON.readTree(payload);
        } catch (JacksonException malformed) {
            return "malformed message";
        }
        if (message == null || !message.isObject()) return "malformed message";
        String type = message.path("type").asString("");
        JsonNode seq = message.path("seq");
        if (!seq.isIntegralNumber() || !seq.canConvertToLong() || seq.asLong() < 0) return "seq must be a number";
        switch (type) {
            case "invalidate" -> {
                JsonNode bookId = message.path("bookId");
                JsonNode version = message.path("version");
                JsonNode searchAffected = message.path("searchAffected");
                if (!positiveLong(bookId) || !positiveLong(version)) return "bookId and version must be positive";
                if (!searchAffected.isMissingNode() && !searchAffected.isBoolean()) {
                    return "searchAffected must be true or false";
                }
                JsonNode fileName = message.path("fileName");
                JsonNode fileRevision = message.path("fileRevision");
                if (fileName.isMissingNode() != fileRevision.isMissingNode()) {
                    return "fileName and fileRevision come together";
                }
                String name = null;
                if (!fileName.isMissingNode()) {
                    name = fileName.isString() ? fileName.asString() : "";
                    if (name.isEmpty() || name.length() > Invalidation.MAX_FILE_NAME) {
                        return "fileName must be a name of 1 to " + Invalidation.MAX_FILE_NAME + " characters";
                    }
                    if (!positiveLong(fileRevision)) return "fileRevision must be positive";
                }
                new Invalidation(
                                bookId.asLong(),
                                version.asLong(),
                                null,
                                searchAffected.asBoolean(false),
                                name,
                                name == null ? null : fileRevision.asLong())
                        .applyTo(cache);
                catalog.session().sendMessage(new TextMessage("{\"type\":\"ack\",\"seq\":" + seq.asLong() + "}"));
                return null;
            }
            case "lease" -> {
                JsonNode millis = message.path("millis");
                if (!positiveLong(millis)) return "millis must be positive";
                catalog.lease().granted(seq.asLong(), millis.asLong());
                return null;
            }
            default -> {
                return "unknown message type";
            }
        }
    }

    private static boolean positiveLong(JsonNode node) {
        return node.isIntegralNumber() && node.canConvertToLong() && node.asLong() > 0;
    }

    @Override
    public void handleTransportError(WebSocketSession session, Throwable error) {
        log.debug("Invalidation session {} failed", session.getId(), error);
    }

    @Override
    public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
        if (open.remove(session.getId()) != null) {
            leases.closed(session.getId());
            log.info("Catalog {} closed its invalidation session ({})", session.getRemoteAddress(), status);
        }
    }

    /** On the renewals' thread: asks every catalog for a renewal, and closes sessions whose catalog fell silent. */
    private void renewAll() {
        long now = System.nanoTime();
        for (Open catalog : open.values()) {
            if (catalog.lease().silent(now)) {
                closeQuietly(catalog.session(), CloseStatus.SESSION_NOT_RELIABLE.withReason("no lease granted"));
                continue;
            }
            renew(catalog);
        }
    }

    private void renew(Open catalog) {
        try {
            long seq = catalog.lease().ask();
            catalog.session().sendMessage(new TextMessage("{\"type\":\"renew\",\"seq\":" + seq + "}"));
        } catch (IOException | RuntimeException failed) {
            // The decorator closes a session it cannot send to in time; it ends through afterConnectionClosed.
            log.debug("Could not ask {} for a lease", catalog.session().getId(), failed);
        }
    }

    private static void closeQuietly(WebSocketSession session, CloseStatus status) {
        try {
            session.close(status);
        } catch (IOException | RuntimeException ignored) {
            // closed already
        }
    }

    /** Sessions closed for a bad message. */
    long refused() {
        return refused.get();
    }

    int sessions() {
        return open.size();
    }

    /** Bytes waiting to be sent over every session (each bounded; a session over its bound is closed). */
    long buffered() {
        long bytes = 0;
        for (Open catalog : open.values()) {
            if (catalog.session() instanceof ConcurrentWebSocketSessionDecorator decorator) {
                bytes += decorator.getBufferSize();
            }
        }
        return bytes;
    }

    @Override
    public void close() {
        renewals.shutdownNow();
        for (Open catalog : open.values()) closeQuietly(catalog.session(), CloseStatus.GOING_AWAY);
    }
}
