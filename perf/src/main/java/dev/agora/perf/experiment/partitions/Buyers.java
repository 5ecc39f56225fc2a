package dev.agora.perf.experiment.partitions;

import dev.agora.perf.load.HttpDriver;
import dev.agora.perf.load.HttpReply;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Bookstore buyers: each buys one or two copies of a random book through the frontends, with an {@code
 * Idempotency-Key} per buy, and sends a failed attempt again with the same key (through the next frontend) until it
 * is answered or the attempts run out. Records what each buy was finally answered: confirmed (201), rejected (409
 * out of stock) or nothing (unknown).
 */
final class Buyers {

    static final int ATTEMPTS = 6;
    private static final long RETRY_PAUSE_MILLIS = 200;
    private static final Pattern ORDER_ID = Pattern.compile("\"orderId\"\\s*:\\s*(\\d+)");

    enum Answer {
        CONFIRMED,
        REJECTED,
        UNKNOWN
    }

    /** One buy and what it was answered in the end. */
    record Buy(String key, long bookId, int quantity, Answer answer, long orderId, String last) {}

    private final List<String> frontends;
    private final Supplier<String> authorization;
    private final List<Long> books;
    private final HttpDriver http;
    private final Calls calls;
    private final ConcurrentLinkedQueue<Buy> buys = new ConcurrentLinkedQueue<>();

    Buyers(List<String> frontends, Supplier<String> authorization, List<Long> books, HttpDriver http, Calls calls) {
        this.frontends = List.copyOf(frontends);
        this.authorization = authorization;
        this.books = List.copyOf(books);
        this.http = http;
        this.calls = calls;
    }

    List<Thread> start(int count, AtomicBoolean stop) {
        List<Thread> threads = new ArrayList<>();
        for (int b = 0; b < count; b++) {
            int number = b;
            threads.add(Thread.ofPlatform().daemon().name("buyer-" + b).start(() -> {
                Random random = new Random(number * 7919L + System.nanoTime());
                int next = number;
                while (!stop.get()) {
                    buys.add(buy(books.get(random.nextInt(books.size())), 1 + random.nextInt(2), next++));
                }
            }));
        }
        return threads;
    }

    private Buy buy(long bookId, int quantity, int firstFrontend) {
        String key = "nemesis-" + UUID.randomUUID();
        String body = "{\"bookId\":" + bookId + ",\"quantity\":" + quantity + "}";
        String last = "";
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            String frontend = frontends.get((firstFrontend + attempt) % frontends.size());
            long started = System.nanoTime();
            HttpReply reply = http.postJson(
                    frontend + "/api/orders",
                    body,
                    Map.of("Authorization", authorization.get(), "Idempotency-Key", key));
            last = reply.status() + " " + (reply.status() == 0 ? reply.failure() : abbreviate(reply.body()));
            if (reply.status() == 201 && reply.body().contains("\"CONFIRMED\"")) {
                calls.record("buy", started, true);
                return new Buy(key, bookId, quantity, Answer.CONFIRMED, orderId(reply.body()), last);
            }
            if (reply.status() == 409 && reply.body().contains("out-of-stock")) {
                calls.record("buy", started, true);
                return new Buy(key, bookId, quantity, Answer.REJECTED, orderId(reply.body()), last);
            }
            calls.record("buy", started, false);
            if (reply.status() >= 400 && reply.status() < 500 && reply.status() != 429) {
                // Not a fault of the network: a refusal the buy would get again. It stays unknown, and the checks
                // still find it at most once.
                break;
            }
            sleep(RETRY_PAUSE_MILLIS);
        }
        return new Buy(key, bookId, quantity, Answer.UNKNOWN, -1, last);
    }

    List<Buy> buys() {
        return List.copyOf(buys);
    }

    private static long orderId(String body) {
        Matcher id = ORDER_ID.matcher(body);
        return id.find() ? Long.parseLong(id.group(1)) : -1;
    }

    static String abbreviate(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
