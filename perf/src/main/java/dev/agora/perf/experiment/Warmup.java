package dev.agora.perf.experiment;

import dev.agora.perf.load.Bookstore;
import dev.agora.perf.load.ClosedLoad;
import dev.agora.perf.load.HttpDriver;
import java.util.List;

/**
 * Runs every bookstore call a few hundred times on a fresh cluster before anything is measured, so the
 * figures are those of a warmed-up JVM rather than of the interpreter and cold connection pools (the seeds'
 * Python servers had no JIT to warm). Every instance gets traffic.
 */
final class Warmup {

    private Warmup() {}

    static void bookstore(Target target, int iterationsPerClient) {
        List<String> frontends = target.urls("frontend");
        List<String> catalogs = target.urls("catalog");
        List<String> orders = target.urls("order");
        if (frontends.isEmpty() || catalogs.isEmpty()) return;
        try (HttpDriver http = new HttpDriver(16)) {
            Bookstore bookstore = new Bookstore(http);
            Stock.ensure(bookstore, catalogs.getFirst(), Bookstore.BOOK_IDS, 5L * iterationsPerClient + 100);
            ClosedLoad.run(4, iterationsPerClient, (client, i, recorder) -> {
                String frontend = frontends.get((client + i) % frontends.size());
                String catalog = catalogs.get((client + i) % catalogs.size());
                long book = Bookstore.BOOK_IDS.get((client + i) % Bookstore.BOOK_IDS.size());
                recorder.time("search", () -> bookstore.search(frontend, Bookstore.TOPICS.get(i % 2)));
                recorder.time("lookup", () -> bookstore.lookup(frontend, book));
                recorder.time("catalog lookup", () -> bookstore.catalogLookup(catalog, book));
                if (i % 4 == 0) recorder.time("buy", () -> bookstore.buy(frontend, book, 1));
                if (!orders.isEmpty() && i % 8 == 0) {
                    String order = orders.get((client + i) % orders.size());
                    recorder.time("order", () -> bookstore.orderDirect(order, book, 1, "warmup-" + client + "-" + i));
                }
            });
        }
    }
}
