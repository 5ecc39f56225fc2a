package dev.agora.catalog.invalidation;

import dev.agora.catalog.book.BookChangeListener;
import dev.agora.catalog.book.BookChanged;
import dev.agora.common.security.ServiceTokens;
import dev.agora.common.web.WritingFrontend;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpHeaders;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.web.util.UriComponentsBuilder;
import tools.jackson.databind.json.JsonMapper;

/**
 * Pushes every committed book change to every frontend instance, in parallel, before the write is answered,
 * so no frontend serves the old book once the write returned. The frontend a buy came through is not waited
 * for: it drops the book itself when the answer reaches it. A frontend that fails gets a few quick retries
 * within the deadline; after that the failure is counted and logged, and the write is answered anyway: a slow
 * or dead frontend delays writes by at most the deadline.
 *
 * <p>Every push carries the catalog's own client-credentials token ({@code Authorization: Bearer}, scope
 * {@code internal}), which the frontends' authorization server issues; when no token can be had, the push fails
 * as it does against an unreachable frontend.
 */
final class FrontendInvalidator implements BookChangeListener, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(FrontendInvalidator.class);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final InvalidationProperties properties;
    private final DiscoveryClient discovery;
    /**
     * Apache HttpClient as it is, not through RestClient: a push lies on the path of every write, and a POST
     * of a few dozen bytes needs none of the client observation and message conversion RestClient adds.
     */
    private final CloseableHttpClient http;

    /** The usual way a push goes, once a frontend named its channel; HTTP is the way in and the fallback. */
    private final PushChannels channels;

    /** The catalog's own client-credentials token, which every push carries (scope {@code internal}). */
    private final ServiceTokens tokens;

    private final MeterRegistry meters;
    /**
     * Platform threads: a virtual thread blocked on a socket read costs two more wake-ups (poller, carrier)
     * per push, and each wake-up is a wait for a core on a crowded machine.
     */
    private final ExecutorService pushers = Executors.newCachedThreadPool(
            Thread.ofPlatform().name("invalidation-push-", 0).daemon().factory());
    /** What invalidation adds to a write: from the announcement to the last frontend's acknowledgement. */
    private final Timer pushTime;
    /** Frontends whose last push failed: logged once when they fail and once when they are back. */
    private final Set<URI> failing = ConcurrentHashMap.newKeySet();

    FrontendInvalidator(
            InvalidationProperties properties,
            DiscoveryClient discovery,
            CloseableHttpClient http,
            ServiceTokens tokens,
            MeterRegistry meters) {
        this.properties = properties;
        this.discovery = discovery;
        this.http = http;
        this.channels = new PushChannels(tokens, properties.connectTimeout(), properties.readTimeout(), pushers);
        this.tokens = tokens;
        this.meters = meters;
        this.pushTime = Timer.builder("agora.invalidation.push")
                .description("Time a write waits for every frontend to take its invalidation")
                // Client-side percentiles only: Prometheus drops them from a timer that also has a histogram.
                .publishPercentiles(0.5, 0.99)
                .register(meters);
    }

    @Override
    public Announcement announce(BookChanged change, Optional<URI> writingFrontend) {
        long started = System.nanoTime();
        long deadline = started + properties.deadline().toNanos();
        byte[] body = null;
        List<PushChannels.Sent> awaitedOnChannels = new ArrayList<>();
        List<PushChannels.Sent> writerOnChannel = new ArrayList<>();
        List<Future<?>> awaited = new ArrayList<>();
        for (ServiceInstance instance : discovery.getInstances(properties.serviceId())) {
            URI frontend = instance.getUri();
            boolean writer =
                    writingFrontend.isPresent() && WritingFrontend.sameInstance(frontend, writingFrontend.get());
            Optional<PushChannels.Sent> sent = channels.send(frontend, change);
            if (sent.isPresent()) {
                (writer ? writerOnChannel : awaitedOnChannels).add(sent.get());
                continue;
            }
            if (body == null) body = JSON.writeValueAsBytes(change);
            byte[] json = body;
            if (writer) {
                // Not awaited: it drops the book itself before it answers. The push still goes, for the case
                // that this write commits after the writing frontend gave up waiting for it.
                pushers.execute(() -> push(frontend, change, json, deadline));
            } else {
                awaited.add(pushers.submit(() -> push(frontend, change, json, deadline)));
            }
        }
        if (awaited.isEmpty() && awaitedOnChannels.isEmpty() && writerOnChannel.isEmpty()) return Announcement.NONE;
        return () -> {
            try {
                for (PushChannels.Sent sent : awaitedOnChannels) {
                    if (!sent.acknowledged(deadline))
                        awaited.add(pushers.submit(() -> pushOverHttp(sent, change, deadline)));
                }
                awaitAll(awaited, deadline);
            } finally {
                if (!awaited.isEmpty() || !awaitedOnChannels.isEmpty()) {
                    pushTime.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
                }
            }
            for (PushChannels.Sent sent : writerOnChannel) {
                // Its acknowledgement is usually in by now; if not, it is waited for off the write's path.
                if (sent.answered()) {
                    if (!sent.acknowledged(deadline)) pushers.execute(() -> pushOverHttp(sent, change, deadline));
                } else {
                    pushers.execute(() -> {
                        if (!sent.acknowledged(deadline)) pushOverHttp(sent, change, deadline);
                    });
                }
            }
        };
    }

    /** The fallback for a change its channel did not deliver. */
    private void pushOverHttp(PushChannels.Sent failed, BookChanged change, long deadline) {
        push(failed.frontend(), change, JSON.writeValueAsBytes(change), deadline);
    }

    private static void awaitAll(List<Future<?>> pushes, long deadline) {
        for (Future<?> push : pushes) {
            try {
                push.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException stillRunning) {
                // The push goes on in the background and counts its own failure; the write must not wait.
            } catch (ExecutionException e) {
                log.warn("Invalidation push failed unexpectedly", e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** @param body {@code change} as JSON, written once for every frontend */
    private void push(URI frontend, BookChanged change, byte[] body, long deadline) {
        URI target = UriComponentsBuilder.fromUri(frontend)
                .path(properties.path())
                .build()
                .toUri();
        String last = null;
        for (int attempt = 1; attempt <= properties.attempts(); attempt++) {
            String token;
            try {
                // Kept until a minute before it expires; fetched from a frontend's token endpoint when needed.
                token = tokens.bearer();
            } catch (RuntimeException noToken) {
                // No frontend issues tokens now (all down): as good as unreachable, and counted the same way.
                last = "no service token: " + noToken.getMessage();
                if (System.nanoTime() >= deadline) break;
                continue;
            }
            HttpPost post = new HttpPost(target);
            post.setHeader(HttpHeaders.AUTHORIZATION, "Bearer " + token);
            post.setEntity(new ByteArrayEntity(body, ContentType.APPLICATION_JSON));
            try {
                int status = http.execute(post, response -> {
                    EntityUtils.consume(response.getEntity());
                    Header channel = response.getFirstHeader(PushChannels.PORT_HEADER);
                    if (response.getCode() / 100 == 2)
                        channels.learn(frontend, channel == null ? null : channel.getValue());
                    return response.getCode();
                });
                if (status / 100 == 2) {
                    if (failing.remove(frontend)) log.info("Frontend {} takes invalidations again", frontend);
                    return;
                }
                last = "answered " + status;
            } catch (IOException e) {
                last = e.toString();
            }
            if (System.nanoTime() >= deadline) break;
        }
        Counter.builder("agora.invalidation.failures")
                .description("Invalidations a frontend did not acknowledge after all attempts")
                .tag("target", frontend.toString())
                .register(meters)
                .increment();
        if (failing.add(frontend)) {
            log.warn(
                    "Frontend {} did not take the invalidation of book {} version {} (further failures are only"
                            + " counted in agora.invalidation.failures until it recovers): {}",
                    frontend,
                    change.bookId(),
                    change.version(),
                    last == null ? "deadline passed" : last);
        }
    }

    @Override
    public void close() throws IOException {
        channels.close();
        pushers.close();
        http.close();
    }
}
