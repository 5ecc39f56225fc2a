package dev.agora.perf.experiment;

import dev.agora.perf.load.Bookstore;
import dev.agora.perf.load.HttpReply;
import java.util.Collection;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Keeps enough copies of the books in stock that buys measure buying, not running out. */
public final class Stock {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Largest restock asked for in one call; bigger needs are met in several calls. */
    private static final long CHUNK = 10_000;

    private Stock() {}

    public static void ensure(Bookstore bookstore, String catalogUrl, Collection<Long> bookIds, long minimum) {
        for (long bookId : bookIds) ensure(bookstore, catalogUrl, bookId, minimum);
    }

    public static void ensure(Bookstore bookstore, String catalogUrl, long bookId, long minimum) {
        long stock = current(bookstore, catalogUrl, bookId);
        long chunk = CHUNK;
        while (stock < minimum) {
            long quantity = Math.min(chunk, minimum - stock);
            HttpReply reply = bookstore.restock(catalogUrl, bookId, quantity);
            if (reply.isSuccess()) {
                stock = stockOf(reply.body()).orElse(stock + quantity);
            } else if (reply.status() == 400 && chunk > 1) {
                chunk = Math.max(1, chunk / 10); // the catalog caps one restock; ask for less
            } else {
                throw new IllegalStateException("restock of book " + bookId + " failed: " + reply.status() + " "
                        + reply.body() + (reply.failure() == null ? "" : reply.failure()));
            }
        }
    }

    public static long current(Bookstore bookstore, String catalogUrl, long bookId) {
        HttpReply reply = bookstore.catalogLookup(catalogUrl, bookId);
        if (!reply.isSuccess()) {
            throw new IllegalStateException("lookup of book " + bookId + " at " + catalogUrl + " failed: "
                    + reply.status() + " " + reply.body() + (reply.failure() == null ? "" : reply.failure()));
        }
        return stockOf(reply.body()).orElseThrow(() -> new IllegalStateException("no stock in " + reply.body()));
    }

    private static java.util.Optional<Long> stockOf(String body) {
        try {
            JsonNode stock = JSON.readTree(body).path("stock");
            return stock.isNumber() ? java.util.Optional.of(stock.asLong()) : java.util.Optional.empty();
        } catch (RuntimeException e) {
            return java.util.Optional.empty();
        }
    }
}
