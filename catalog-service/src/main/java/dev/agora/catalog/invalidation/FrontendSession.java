package dev.agora.catalog.invalidation;

import dev.agora.catalog.book.BookChanged;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongPredicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The catalog's WebSocket to one frontend ({@code ws://<frontend>/internal/cache/invalidations}, opened with the
 * catalog's service token): invalidations go out and are acknowledged by sequence number, and the frontend's
 * renewals of its lease are granted while this catalog counts it in. Once a write has given up waiting for it, the
 * session is revoked: closed, no more grants, so the frontend's lease runs out and it stops using its cache
 * ({@link #leaseEndsNanos()}).
 */
final class FrontendSession implements WebSocket.Listener {

    private static final Logger log = LoggerFactory.getLogger(FrontendSession.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** An invalidation sent (or waiting to go with a later one: {@code seq} -1) and its acknowledgement to come. */
    record Sent(FrontendSession session, long seq, CompletableFuture<Void> acknowledged) {}

    private final URI frontend;
    private final URI socketUri;
    private final HttpClient http;
    private final Duration connectTimeout;
    private final long leaseMillis;
    private final Supplier<String> token;
    /** Whether a renewal on a socket opened after this announcement number may be granted now. */
    private final LongPredicate grantable;

    private final Supplier<Long> lastAnnouncement;
    /** Where messages are written: not a writer's thread, whose transaction holds the book's row meanwhile. */
    private final Executor writes;

    private final AtomicLong sequence = new AtomicLong();
    /** Books with a message on its way, by id (see {@link #send}); guarded by this session's lock. */
    private final Map<Long, InFlight> inFlight = new HashMap<>();

    private final Map<Long, CompletableFuture<Void>> acknowledgements = new ConcurrentHashMap<>();
    private final StringBuilder partial = new StringBuilder();

    private WebSocket socket;
    private CompletableFuture<WebSocket> connecting;
    private CompletableFuture<?> sending = CompletableFuture.completedFuture(null);
    /** Announcements started before the current socket opened: none of them may be in flight at a grant. */
    private long openedAfterAnnouncement;

    /** When this catalog last granted the frontend a lease, on any socket; its lease ends a lease length later. */
    private volatile long lastGrantNanos;

    private volatile boolean everGranted;

    FrontendSession(
            URI frontend,
            HttpClient http,
            Duration connectTimeout,
            Duration lease,
            Supplier<String> token,
            LongPredicate grantable,
            Supplier<Long> lastAnnouncement,
            Executor writes) {
        this.frontend = frontend;
        this.socketUri = socketUri(frontend);
        this.http = http;
        this.connectTimeout = connectTimeout;
        this.leaseMillis = lease.toMillis();
        this.token = token;
        this.grantable = grantable;
        this.lastAnnouncement = lastAnnouncement;
        this.writes = writes;
    }

    private static URI socketUri(URI frontend) {
        String scheme = "https".equalsIgnoreCase(frontend.getScheme()) ? "wss" : "ws";
        return URI.create(scheme + "://" + frontend.getRawAuthority() + "/internal/cache/invalidations");
    }

    URI frontend() {
        return frontend;
    }

    synchronized boolean open() {
        return socket != null;
    }

    /**
     * Sends the change, over a new socket when there is none; never blocks (a reservation announces while its
     * transaction holds the book's row): the message is written on the invalidator's writing thread. The
     * acknowledgement fails with {@link Unreachable} when the frontend cannot be reached or its socket ends first.
     *
     * <p>Changes of one book's row are coalesced: while a message about the book is on its way to this frontend (sent,
     * not yet acknowledged), later changes of the book wait, and when that message has been acknowledged (or failed)
     * they go as one message, carrying the newest version, whose acknowledgement answers each of them. The frontend
     * refuses the book below the newest version it heard of, so that one message covers every change it replaces;
     * under load a hot book costs each frontend one message per round trip rather than one per write. A change of a
     * book's files carries its file's name and revision and always goes on its own.
     */
    Sent send(BookChanged change) {
        if (change.file() != null) return sendNow(change);
        synchronized (this) {
            InFlight flight = inFlight.get(change.bookId());
            if (flight != null) return flight.join(this, change);
            inFlight.put(change.bookId(), new InFlight());
        }
        return sendCovering(change, null);
    }

    /** Sends the change; its acknowledgement also answers {@code covered} (the changes it replaced), if any. */
    private Sent sendCovering(BookChanged change, CompletableFuture<Void> covered) {
        Sent sent = sendNow(change);
        sent.acknowledged().whenComplete((acknowledged, failed) -> {
            if (covered != null) {
                if (failed == null) covered.complete(null);
                else covered.completeExceptionally(failed);
            }
            landed(change.bookId());
        });
        return sent;
    }

    /** The book's message was acknowledged or failed: sends what waited for it, or ends the book's flight. */
    private void landed(long bookId) {
        BookChanged next;
        CompletableFuture<Void> covered;
        synchronized (this) {
            InFlight flight = inFlight.get(bookId);
            if (flight == null) return;
            if (flight.waiting == null) {
                inFlight.remove(bookId);
                return;
            }
            next = flight.waiting;
            covered = flight.covered;
            flight.waiting = null;
            flight.covered = null;
        }
        sendCovering(next, covered);
    }

    /** A book with a message on its way to the frontend, and the newest of its changes waiting for it to land. */
    private static final class InFlight {

        private BookChanged waiting;
        private CompletableFuture<Void> covered;

        /** Waits with the changes already waiting, as one with the newest version. Under the session's lock. */
        Sent join(FrontendSession session, BookChanged change) {
            if (waiting == null) {
                waiting = change;
                covered = new CompletableFuture<>();
            } else {
                BookChanged newer = change.version() >= waiting.version() ? change : waiting;
                waiting = new BookChanged(
                        newer.bookId(),
                        newer.version(),
                        newer.topic(),
                        change.searchAffected() || waiting.searchAffected());
            }
            return new Sent(session, -1, covered);
        }
    }

    private Sent sendNow(BookChanged change) {
        long seq = sequence.incrementAndGet();
        CompletableFuture<Void> acknowledged = new CompletableFuture<>();
        acknowledgements.put(seq, acknowledged);
        ObjectNode invalidation = JSON.createObjectNode()
                .put("type", "invalidate")
                .put("seq", seq)
                .put("bookId", change.bookId())
                .put("version", change.version())
                .put("topic", change.topic())
                .put("searchAffected", change.searchAffected());
        if (change.file() != null) {
            invalidation
                    .put("fileName", change.file().name())
                    .put("fileRevision", change.file().revision());
        }
        String message = JSON.writeValueAsString(invalidation);
        opening().whenComplete((open, notOpened) -> {
            if (notOpened != null) {
                failed(seq, acknowledged, Unreachable.opening(notOpened));
                return;
            }
            send(open, message).whenComplete((sent, notSent) -> {
                if (notSent != null) failed(seq, acknowledged, new Unreachable(notSent));
            });
        });
        return new Sent(this, seq, acknowledged);
    }

    private void failed(long seq, CompletableFuture<Void> acknowledged, Unreachable why) {
        acknowledgements.remove(seq);
        acknowledged.completeExceptionally(why);
    }

    /** The open socket, or the one being opened (a new one when none is). */
    private synchronized CompletableFuture<WebSocket> opening() {
        if (socket != null) return CompletableFuture.completedFuture(socket);
        if (connecting == null || connecting.isDone()) connecting = connect();
        return connecting;
    }

    /** Opens a socket in the background, if there is none and none is being opened. */
    void connectInBackground() {
        opening();
    }

    private CompletableFuture<WebSocket> connect() {
        String bearer;
        try {
            bearer = token.get();
        } catch (RuntimeException noToken) {
            return CompletableFuture.failedFuture(new Unreachable("no service token: " + noToken.getMessage()));
        }
        long before = lastAnnouncement.get();
        return http.newWebSocketBuilder()
                .connectTimeout(connectTimeout)
                .header("Authorization", "Bearer " + bearer)
                .buildAsync(socketUri, this)
                .whenComplete((opened, failed) -> {
                    if (opened == null) return;
                    synchronized (this) {
                        socket = opened;
                        openedAfterAnnouncement = before;
                        sending = CompletableFuture.completedFuture(null);
                    }
                });
    }

    private synchronized CompletableFuture<?> send(WebSocket to, String message) {
        sending = sending.handle((ignored, failed) -> null)
                .thenComposeAsync(ignored -> to.sendText(message, true), writes);
        return sending;
    }

    /**
     * Gives up on the current socket: it is closed and no lease is granted on it again. Returns when the
     * frontend's last lease from this catalog ends (System.nanoTime()).
     */
    long revoke() {
        WebSocket revoked;
        synchronized (this) {
            revoked = socket;
            socket = null;
        }
        if (revoked != null) revoked.abort();
        failPending(new Unreachable("revoked"));
        return leaseEndsNanos();
    }

    /** When the frontend's last lease from this catalog ends; in the past when it never had one. */
    long leaseEndsNanos() {
        return everGranted ? lastGrantNanos + TimeUnit.MILLISECONDS.toNanos(leaseMillis) : System.nanoTime();
    }

    @Override
    public void onOpen(WebSocket webSocket) {
        log.info("Invalidation session to {} open", frontend);
        webSocket.request(1);
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        partial.append(data);
        if (last) {
            String message = partial.toString();
            partial.setLength(0);
            handle(webSocket, message);
        }
        webSocket.request(1);
        return null;
    }

    private void handle(WebSocket from, String text) {
        JsonNode message;
        try {
            message = JSON.readTree(text);
        } catch (JacksonException malformed) {
            return;
        }
        long seq = message.path("seq").asLong(-1);
        switch (message.path("type").asString("")) {
            case "ack" -> {
                CompletableFuture<Void> acknowledged = acknowledgements.remove(seq);
                if (acknowledged != null) acknowledged.complete(null);
            }
            case "renew" -> grant(from, seq);
            default -> log.debug("Unknown message from {}: {}", frontend, text);
        }
    }

    /** Grants a renewal, unless the socket was revoked or a write from before it opened is still going on. */
    private void grant(WebSocket from, long seq) {
        synchronized (this) {
            if (from != socket || !grantable.test(openedAfterAnnouncement)) return;
            // Recorded before the grant leaves: the frontend's lease can only end earlier than this says.
            lastGrantNanos = System.nanoTime();
            everGranted = true;
        }
        send(from, "{\"type\":\"lease\",\"seq\":" + seq + ",\"millis\":" + leaseMillis + "}");
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        closed(webSocket, "closed by the frontend (" + statusCode + " " + reason + ")");
        return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        closed(webSocket, error.toString());
    }

    private void closed(WebSocket which, String why) {
        synchronized (this) {
            if (socket != which) return;
            socket = null;
        }
        log.info("Invalidation session to {} ended: {}", frontend, why);
        failPending(new Unreachable(why));
    }

    private void failPending(Unreachable why) {
        for (Long seq : acknowledgements.keySet()) {
            CompletableFuture<Void> pending = acknowledgements.remove(seq);
            if (pending != null) pending.completeExceptionally(why);
        }
    }

    void close() {
        WebSocket open;
        synchronized (this) {
            open = socket;
            socket = null;
        }
        if (open != null) open.abort();
        failPending(new Unreachable("closing"));
    }

    /** The frontend could not be reached, or its socket ended before it acknowledged. */
    static final class Unreachable extends RuntimeException {

        private boolean opening;

        Unreachable(String why) {
            super(why, null, false, false);
        }

        Unreachable(Throwable cause) {
            super(describe(cause.getCause() != null ? cause.getCause() : cause), cause, false, false);
        }

        /** No session could be opened (refused, timed out, the token refused, no token). */
        static Unreachable opening(Throwable failed) {
            Throwable cause = failed.getCause() != null ? failed.getCause() : failed;
            Unreachable why = cause instanceof Unreachable own ? own : new Unreachable(failed);
            why.opening = true;
            return why;
        }

        boolean opening() {
            return opening;
        }

        private static String describe(Throwable cause) {
            if (cause instanceof java.net.http.WebSocketHandshakeException refused) {
                return "the frontend refused the session: "
                        + refused.getResponse().statusCode();
            }
            return cause.toString();
        }

        /** Nothing listens where the frontend should be: it is down, and its cache with it. */
        boolean refused() {
            for (Throwable cause = getCause(); cause != null; cause = cause.getCause()) {
                if (cause instanceof java.net.ConnectException) return true;
                if (cause.getCause() == cause) break;
            }
            return false;
        }
    }
}
