package dev.agora.launcher.cluster;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bounded closed-loop load of lookups and buys through every frontend, recording every request that did not get
 * a contract answer. Each thread pauses between requests, so the load stays below what two cores can serve while a
 * replica restarts beside it: the test is about failover, not saturation. Buys carry a fresh idempotency key each and are never retried by the client: the system has
 * to hide failover itself.
 */
final class BookstoreLoad implements AutoCloseable {

    private static final int KEPT_FAILURES = 50;

    private final Bookstore bookstore;
    private final List<String> frontends;
    private final List<Long> lookupIds;
    private final List<Long> buyIds;
    private final List<Thread> threads;
    private volatile boolean running = true;

    final AtomicLong lookups = new AtomicLong();
    final AtomicLong outOfStock = new AtomicLong();
    final AtomicInteger failures = new AtomicInteger();
    final Queue<String> failureSamples = new ConcurrentLinkedQueue<>();
    /** orderId of every buy answered 201, to the book it bought. */
    final Map<Long, Long> confirmed = new ConcurrentHashMap<>();

    /**
     * @param buyShare fraction of operations that are buys (of a random book from {@code buyIds})
     * @param pause think time of each thread between two requests
     */
    BookstoreLoad(
            Bookstore bookstore,
            List<String> frontends,
            List<Long> lookupIds,
            List<Long> buyIds,
            int threadCount,
            double buyShare,
            Duration pause) {
        this.bookstore = bookstore;
        this.frontends = List.copyOf(frontends);
        this.lookupIds = List.copyOf(lookupIds);
        this.buyIds = List.copyOf(buyIds);
        this.threads = java.util.stream.IntStream.range(0, threadCount)
                .mapToObj(index ->
                        Thread.ofPlatform().name("load-" + index).daemon().start(() -> loop(index, buyShare, pause)))
                .toList();
    }

    private void loop(int index, double buyShare, Duration pause) {
        String frontend = frontends.get(index % frontends.size());
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (running) {
            try {
                if (random.nextDouble() < buyShare) {
                    long bookId = buyIds.get(random.nextInt(buyIds.size()));
                    String key = UUID.randomUUID().toString();
                    Http.Reply reply = bookstore.buy(frontend, bookId, 1, key);
                    if (reply.status() == 201
                            && "CONFIRMED".equals(reply.json().path("status").asString())) {
                        confirmed.put(reply.json().path("orderId").asLong(), bookId);
                    } else if (reply.status() == 409 && reply.isProblem()) {
                        outOfStock.incrementAndGet();
                    } else {
                        fail("buy " + bookId + " via " + frontend + " key " + key + ": " + reply);
                    }
                } else {
                    long bookId = lookupIds.get(random.nextInt(lookupIds.size()));
                    Http.Reply reply = bookstore.lookup(frontend, bookId);
                    if (reply.status() == 200 && reply.json().path("id").asLong() == bookId) {
                        lookups.incrementAndGet();
                    } else {
                        fail("lookup " + bookId + " via " + frontend + ": " + reply);
                    }
                }
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                fail("via " + frontend + ": " + e);
            }
        }
    }

    private void fail(String what) {
        if (failures.incrementAndGet() <= KEPT_FAILURES) failureSamples.add(what);
    }

    /** Runs the load for a while longer, e.g. to let traffic reach restarted replicas. */
    void runFor(Duration duration) throws InterruptedException {
        Thread.sleep(duration);
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        for (Thread thread : threads) {
            thread.join(Duration.ofSeconds(30));
        }
    }

    String summary() {
        return "lookups=" + lookups + " confirmed=" + confirmed.size() + " outOfStock=" + outOfStock + " failures="
                + failures + " e.g. " + failureSamples;
    }
}
