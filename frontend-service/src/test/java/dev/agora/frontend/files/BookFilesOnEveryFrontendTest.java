package dev.agora.frontend.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.frontend.cluster.Books;
import dev.agora.frontend.cluster.BookstoreCluster;
import dev.agora.frontend.cluster.Http;
import dev.agora.local.process.ServiceProcess;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A book's files on its web page and on the JSON API, on the real cluster: each caching frontend (A and B) keeps a
 * book's list beside the book, and the catalog's invalidation of the book, pushed before an upload is answered,
 * drops it on every frontend. So once the upload's answer is in, every frontend lists the new file at once.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BookFilesOnEveryFrontendTest {

    private static final int CACHING_FRONTENDS = 2;
    private static final int ALL_FRONTENDS = 3;

    private static BookstoreCluster cluster;
    private static Http http;
    private static String admin;

    @BeforeAll
    static void start() {
        cluster = BookstoreCluster.get();
        http = new Http();
        admin = "Bearer " + cluster.tokens().admin();
        cluster.awaitCachesLeased();
    }

    @AfterAll
    static void restore() throws Exception {
        try {
            for (ServiceProcess catalog : cluster.catalogs) catalog.thaw();
            cluster.awaitCachesLeased();
        } finally {
            http.close();
        }
    }

    @Test
    @Order(1)
    void aFileUploadedIsOnTheBookPageOfEveryFrontendAsSoonAsTheUploadIsAnswered() {
        long book = Books.register(http, cluster, "Pages with files", 1);
        for (int f = 0; f < ALL_FRONTENDS; f++) {
            assertThat(page(f, book)).contains("No files for this book.").doesNotContain("first.pdf");
        }
        // Seen again, the list comes from the caching frontends' caches, not from a catalog.
        for (int f = 0; f < CACHING_FRONTENDS; f++) {
            double hits = filesCacheHits(f);
            assertThat(page(f, book)).contains("No files for this book.");
            assertThat(filesCacheHits(f))
                    .as("frontend %d served the list from its cache", f)
                    .isGreaterThan(hits);
        }

        HttpResponse<String> uploaded = FileTransfer.upload(fileUrl(0, book, "first.pdf"), 2048, 5, admin);
        assertThat(uploaded.statusCode()).as(uploaded.body()).isEqualTo(201);

        for (int f = 0; f < ALL_FRONTENDS; f++) {
            assertThat(page(f, book))
                    .as("frontend %d after the upload was answered", f)
                    .contains("first.pdf")
                    .contains("2.0 KB")
                    .doesNotContain("No files for this book.");
            Http.Response listed = http.get(cluster.frontend(f) + "/api/books/" + book + "/files");
            assertThat(listed.json().size()).as("frontend %d's JSON list", f).isEqualTo(1);
        }

        // New content under the same name, uploaded through the other caching frontend: every page shows its size.
        for (int f = 0; f < CACHING_FRONTENDS; f++) page(f, book);
        HttpResponse<String> replaced = FileTransfer.upload(fileUrl(1, book, "first.pdf"), 3 * 1024 * 1024, 6, admin);
        assertThat(replaced.statusCode()).as(replaced.body()).isEqualTo(200);
        for (int f = 0; f < ALL_FRONTENDS; f++) {
            assertThat(page(f, book)).as("frontend %d", f).contains("3.0 MB").doesNotContain("2.0 KB");
        }
    }

    @Test
    @Order(2)
    void withNoCatalogAnsweringTheBookPageIsAPlainMessageNotAStackTrace() {
        long book = Books.register(http, cluster, "Pages without catalogs", 1);
        assertThat(page(2, book)).contains("Pages without catalogs");
        for (ServiceProcess catalog : cluster.catalogs) catalog.freeze();
        try {
            // The caching frontends lose their catalogs' leases and read through too; C never caches. Each answer
            // waits out its frontend's catalog timeouts, so the three frontends are asked at once, not in turn.
            List<CompletableFuture<Http.Response>> asked;
            try (ExecutorService askers = Executors.newVirtualThreadPerTaskExecutor()) {
                asked = IntStream.range(0, ALL_FRONTENDS)
                        .mapToObj(f -> CompletableFuture.supplyAsync(
                                () -> http.get(cluster.frontend(f) + "/books/" + book), askers))
                        .toList();
            }
            for (int f = 0; f < ALL_FRONTENDS; f++) {
                Http.Response answer = asked.get(f).join();
                assertThat(answer.status()).as("frontend %d", f).isEqualTo(503);
                assertThat(answer.header("Content-Type")).startsWith("text/html");
                assertThat(answer.body())
                        .contains("Service unavailable")
                        .doesNotContain("Exception")
                        .doesNotContain("at dev.agora");
            }
        } finally {
            for (ServiceProcess catalog : cluster.catalogs) catalog.thaw();
        }
        cluster.awaitCachesLeased();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        Http.Response again;
        do {
            again = http.get(cluster.frontend(0) + "/books/" + book);
        } while (again.status() != 200 && System.nanoTime() < deadline);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.body()).contains("No files for this book.");
    }

    private static String page(int frontend, long book) {
        Http.Response page = http.get(cluster.frontend(frontend) + "/books/" + book);
        assertThat(page.status()).as("frontend %d: %s", frontend, page).isEqualTo(200);
        return page.body();
    }

    private static String fileUrl(int frontend, long book, String name) {
        return cluster.frontend(frontend) + "/api/books/" + book + "/files/" + name;
    }

    private static double filesCacheHits(int frontend) {
        MeterRegistry meters = cluster.frontendContext(frontend).getBean(MeterRegistry.class);
        FunctionCounter hits = meters.find("cache.gets")
                .tag("cache", "books.files")
                .tag("result", "hit")
                .functionCounter();
        return hits == null ? 0 : hits.count();
    }
}
