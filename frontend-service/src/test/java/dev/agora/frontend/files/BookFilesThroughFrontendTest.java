package dev.agora.frontend.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agora.frontend.cluster.Books;
import dev.agora.frontend.cluster.BookstoreCluster;
import dev.agora.frontend.cluster.Http;
import dev.agora.frontend.cluster.Metrics;
import dev.agora.local.process.ServiceProcess;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * Book files through the front door, on the real cluster: two catalog processes that each hold every file on their
 * own disk (two copies), the index in PostgreSQL, a frontend streaming bytes both ways. Downloads survive the loss
 * of a holder, also in the middle of a transfer.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BookFilesThroughFrontendTest {

    private static final int MB = 1024 * 1024;

    private static BookstoreCluster cluster;
    private static Http http;
    private static String frontend;
    private static String admin;

    @BeforeAll
    static void start() {
        cluster = BookstoreCluster.get();
        http = new Http();
        frontend = cluster.frontend(0);
        admin = "Bearer " + cluster.tokens().admin();
    }

    @AfterAll
    static void restore() throws Exception {
        try {
            for (ServiceProcess catalog : cluster.catalogs) {
                if (!catalog.isAlive()) {
                    catalog.startAndAwaitReady(BookstoreCluster.readyTimeout());
                    BookstoreCluster.warmUp(http, catalog);
                }
            }
        } finally {
            http.close();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1024, 10 * MB})
    @Order(1)
    void anUploadThroughTheFrontendDownloadsByteForByteAndLivesOnBothNodes(int size) {
        long book = Books.register(http, cluster, "Files " + size, 1);
        HttpResponse<String> uploaded = FileTransfer.upload(url(book, "book.pdf"), size, size, admin);
        assertThat(uploaded.statusCode()).as(uploaded.body()).isEqualTo(201);
        JsonNode view = Http.JSON.readTree(uploaded.body());
        assertThat(view.path("hash").asString()).isEqualTo(FileTransfer.sha256(size, size));
        assertThat(view.path("url").asString()).isEqualTo("/api/books/" + book + "/files/book.pdf");
        assertThat(view.has("nodes")).as("the public view hides the nodes").isFalse();
        assertThat(uploaded.headers().firstValue("Location")).hasValue("/api/books/" + book + "/files/book.pdf");

        HttpResponse<InputStream> downloaded = FileTransfer.download(url(book, "book.pdf"));
        assertThat(downloaded.statusCode()).isEqualTo(200);
        assertThat(downloaded.headers().firstValueAsLong("Content-Length")).hasValue(size);
        assertThat(downloaded.headers().firstValue("ETag")).hasValue("\"" + FileTransfer.sha256(size, size) + "\"");
        assertThat(FileTransfer.sha256(downloaded.body())).isEqualTo(FileTransfer.sha256(size, size));

        // The index names both catalogs as holders, and each serves the file from its own disk.
        Http.Response listed = http.get(cluster.catalogs.get(0).baseUrl() + "/books/" + book + "/files");
        assertThat(listed.json().get(0).path("nodes").size()).isEqualTo(2);
        for (ServiceProcess catalog : cluster.catalogs) {
            HttpResponse<byte[]> direct =
                    FileTransfer.downloadBytes(catalog.baseUrl() + "/books/" + book + "/files/book.pdf");
            assertThat(direct.statusCode()).isEqualTo(200);
            assertThat(sha256(direct.body())).isEqualTo(FileTransfer.sha256(size, size));
        }
    }

    /**
     * An uploader chooses a file's type and its bytes come from the store's own origin: HTML, a script or an SVG must
     * come back as bytes no browser runs, whoever answers (a catalog node, a frontend passing the node's answer
     * through, a frontend answering from memory); a type on the allow-list keeps its type.
     */
    @Test
    @Order(1)
    void anUploadedPageOrScriptDownloadsInertFromTheCatalogAndThroughEveryFrontend() {
        long book = Books.register(http, cluster, "Active Content", 1);
        Map<String, String[]> files = Map.of(
                "page.html", new String[] {"text/html", "<html><script>alert(document.cookie)</script></html>"},
                "run.js", new String[] {"application/javascript", "fetch('/api/orders').then(r => r.text())"},
                "image.svg",
                        new String[] {"image/svg+xml", "<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>"},
                "notes.txt", new String[] {"text/plain", "plain notes"});
        for (var file : files.entrySet()) {
            byte[] content = file.getValue()[1].getBytes(java.nio.charset.StandardCharsets.UTF_8);
            HttpResponse<String> uploaded =
                    FileTransfer.upload(url(book, file.getKey()), content, file.getValue()[0], admin);
            assertThat(uploaded.statusCode()).as(uploaded.body()).isEqualTo(201);
            String expectedType = file.getKey().equals("notes.txt") ? "text/plain" : "application/octet-stream";
            List<String> downloads = List.of(
                    cluster.catalogs.get(0).baseUrl() + "/books/" + book + "/files/" + file.getKey(),
                    // Frontend B did not take the upload: it passes the node's answer through, then keeps the bytes.
                    cluster.frontend(1) + path(book, file.getKey()),
                    cluster.frontend(1) + path(book, file.getKey()),
                    // Frontend A took the upload and answers from memory.
                    url(book, file.getKey()));
            for (String download : downloads) {
                HttpResponse<byte[]> answer = FileTransfer.downloadBytes(download);
                String what = file.getKey() + " from " + download;
                assertThat(answer.statusCode()).as(what).isEqualTo(200);
                assertThat(answer.body()).as(what).isEqualTo(content);
                assertThat(answer.headers().firstValue("Content-Type")).as(what).hasValue(expectedType);
                assertThat(answer.headers().firstValue("Content-Security-Policy"))
                        .as(what)
                        .hasValue("sandbox");
                assertThat(answer.headers().firstValue("Cross-Origin-Resource-Policy"))
                        .as(what)
                        .hasValue("same-origin");
                assertThat(answer.headers().allValues("X-Content-Type-Options"))
                        .as(what)
                        .containsExactly("nosniff");
                assertThat(answer.headers().firstValue("Content-Disposition"))
                        .as(what)
                        .hasValueSatisfying(
                                disposition -> assertThat(disposition).startsWith("attachment"));
            }
        }
    }

    @Test
    @Order(2)
    void rangesAndConditionalRequestsPassThrough() {
        long book = Books.register(http, cluster, "Ranges", 1);
        int size = 300_000;
        assertThat(FileTransfer.upload(url(book, "r.bin"), size, 7, admin).statusCode())
                .isEqualTo(201);
        String etag = "\"" + FileTransfer.sha256(size, 7) + "\"";

        HttpResponse<byte[]> middle = FileTransfer.downloadBytes(url(book, "r.bin"), "Range", "bytes=1000-1999");
        assertThat(middle.statusCode()).isEqualTo(206);
        assertThat(middle.headers().firstValue("Content-Range")).hasValue("bytes 1000-1999/" + size);
        assertThat(middle.body()).hasSize(1000);
        HttpResponse<byte[]> last = FileTransfer.downloadBytes(url(book, "r.bin"), "Range", "bytes=-1");
        assertThat(last.headers().firstValue("Content-Range")).hasValue("bytes 299999-299999/" + size);
        HttpResponse<byte[]> beyond = FileTransfer.downloadBytes(url(book, "r.bin"), "Range", "bytes=300000-");
        assertThat(beyond.statusCode()).isEqualTo(416);
        assertThat(beyond.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(FileTransfer.downloadBytes(url(book, "r.bin"), "If-None-Match", etag)
                        .statusCode())
                .isEqualTo(304);
    }

    @Test
    @Order(3)
    void filesAreFoundByNameAndListedPerBook() {
        long book = Books.register(http, cluster, "Searchable", 1);
        FileTransfer.upload(url(book, "Frontend-Unique-Name.epub"), 100, 1, admin);
        Http.Response found = http.get(frontend + "/api/files?q=frontend-unique");
        assertThat(found.status()).isEqualTo(200);
        assertThat(found.json().size()).isEqualTo(1);
        assertThat(found.json().get(0).path("url").asString())
                .isEqualTo("/api/books/" + book + "/files/Frontend-Unique-Name.epub");
        assertThat(found.json().get(0).path("title").asString()).isEqualTo("Searchable");
        Http.Response listed = http.get(frontend + "/api/books/" + book + "/files");
        assertThat(listed.json().size()).isEqualTo(1);

        FileTransfer.upload(url(book, "b-second.txt"), 10, 2, admin);
        FileTransfer.upload(url(book, "c-third.txt"), 10, 3, admin);
        Http.Response first = http.get(frontend + "/api/books/" + book + "/files?limit=2");
        assertThat(first.json().size()).isEqualTo(2);
        String last = first.json().get(1).path("name").asString();
        Http.Response next = http.get(frontend + "/api/books/" + book + "/files?limit=2&after=" + last);
        assertThat(next.json().size()).isEqualTo(1);
        assertThat(next.json().get(0).path("name").asString()).isGreaterThan(last);
        assertThat(http.get(frontend + "/api/books/" + book + "/files?limit=1001")
                        .status())
                .isEqualTo(400);
    }

    @ParameterizedTest
    @ValueSource(strings = {"..", "a%2Fb", "bad%01name", "x"})
    @Order(4)
    void badNamesLongNamesAndUnknownBooksAreProblemsAndWritesNeedAPublisher(String name) {
        long book = Books.register(http, cluster, "Refusals", 1);
        String target = name.equals("x") ? "x".repeat(300) : name;
        HttpResponse<String> refused = FileTransfer.upload(url(book, target), 10, 1, admin);
        assertThat(refused.statusCode()).as(name).isEqualTo(400);
        assertThat(refused.headers().firstValue("Content-Type")).as(name).hasValue("application/problem+json");

        HttpResponse<String> unknownBook = FileTransfer.upload(url(999_999, "a.txt"), 10, 1, admin);
        assertThat(unknownBook.statusCode()).isEqualTo(404);
        assertThat(unknownBook.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        HttpResponse<String> anonymous = FileTransfer.upload(url(book, "a.txt"), 10, 1, null);
        assertThat(anonymous.statusCode()).isEqualTo(401);
        HttpResponse<String> customer = FileTransfer.upload(
                url(book, "a.txt"), 10, 1, "Bearer " + cluster.tokens().customer());
        assertThat(customer.statusCode()).isEqualTo(403);
        assertThat(http.get(frontend + "/api/books/" + book + "/files").json().size())
                .isZero();
    }

    @Test
    @Order(5)
    void anUploadCutOffHalfwayThroughTheFrontendLeavesNoFile() throws Exception {
        long book = Books.register(http, cluster, "Cut off", 1);
        long uploadsAnswered = catalogUploadsAnswered();
        long declared = 20L * MB;
        int port = java.net.URI.create(frontend).getPort();
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            java.io.OutputStream out = socket.getOutputStream();
            out.write(("PUT " + path(book, "cut.bin") + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " + admin
                            + "\r\nContent-Type: application/octet-stream\r\nContent-Length: " + declared
                            + "\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            FileTransfer.content(declared / 2, 3).transferTo(out);
            out.flush();
            Thread.sleep(500);
        }
        // The catalog notices the end of its body when the frontend's connection to it breaks; give it a moment: until
        // it has answered the cut-off upload (after which nothing of it can be registered), at most 10 s.
        long deadline = System.nanoTime() + 10_000_000_000L;
        boolean answered = false;
        while (!answered && System.nanoTime() < deadline) {
            answered = catalogUploadsAnswered() > uploadsAnswered;
            assertThat(http.get(frontend + "/api/books/" + book + "/files")
                            .json()
                            .size())
                    .isZero();
            if (!answered) Thread.sleep(200);
        }
        assertThat(FileTransfer.downloadBytes(url(book, "cut.bin")).statusCode())
                .isEqualTo(404);
    }

    @Test
    @Order(10)
    void aDownloadSurvivesTheLossOfTheNodeSendingIt() throws Exception {
        long book = Books.register(http, cluster, "Survivor", 1);
        long size = 64L * MB;
        assertThat(FileTransfer.upload(url(book, "big.bin"), size, 99, admin).statusCode())
                .isEqualTo(201);
        String expected = FileTransfer.sha256(size, 99);
        Map<ServiceProcess, Double> before = sendfileCounts();

        HttpResponse<InputStream> downloading = FileTransfer.download(url(book, "big.bin"));
        assertThat(downloading.statusCode()).isEqualTo(200);
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        try (InputStream body = downloading.body()) {
            byte[] buffer = new byte[64 * 1024];
            long read = 0;
            while (read < 2L * MB) {
                int n = body.read(buffer);
                digest.update(buffer, 0, n);
                read += n;
            }
            // The node that started sending is killed with most of the file still to go.
            ServiceProcess sending = sendingNode(before);
            sending.kill();
            for (int n; (n = body.read(buffer)) >= 0; ) {
                digest.update(buffer, 0, n);
                read += n;
            }
            assertThat(read).isEqualTo(size);
        }
        assertThat(HexFormat.of().formatHex(digest.digest())).isEqualTo(expected);

        // With one of its two holders gone, the file still downloads whole, from any frontend.
        for (int f = 0; f < 3; f++) {
            HttpResponse<InputStream> again = FileTransfer.download(cluster.frontend(f) + path(book, "big.bin"));
            assertThat(again.statusCode()).isEqualTo(200);
            assertThat(FileTransfer.sha256(again.body())).isEqualTo(expected);
        }
    }

    @Test
    @Order(11)
    void anUploadThatCannotGetItsTwoCopiesRegistersNothing() {
        assumeTrue(
                cluster.catalogs.stream().anyMatch(c -> !c.isAlive()), "needs the catalog killed by the test before");
        long book = Books.register(http, cluster, "Under-replicated", 1);
        HttpResponse<String> refused = FileTransfer.upload(url(book, "lonely.bin"), 1000, 5, admin);
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(http.get(frontend + "/api/books/" + book + "/files").json().size())
                .isZero();
    }

    /** Uploads the live catalog nodes have answered (whatever the outcome), from their own request counters. */
    private static long catalogUploadsAnswered() {
        long total = 0;
        for (ServiceProcess catalog : cluster.catalogs) {
            if (!catalog.isAlive()) continue;
            Http.Response scrape = http.get(catalog.baseUrl() + "/actuator/prometheus");
            assertThat(scrape.status()).as("%s metrics", catalog.name()).isEqualTo(200);
            for (String line : scrape.body().split("\n")) {
                if (line.startsWith("http_server_requests_seconds_count{")
                        && line.contains("method=\"PUT\"")
                        && line.contains("uri=\"/admin/books/{id}/files/{name}\"")) {
                    total += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
        }
        return total;
    }

    /** The catalog whose sendfile count went up since {@code before}: the one sending the download. */
    private static ServiceProcess sendingNode(Map<ServiceProcess, Double> before) {
        Map<ServiceProcess, Double> now = sendfileCounts();
        List<ServiceProcess> sending = cluster.catalogs.stream()
                .filter(c -> now.get(c) > before.get(c))
                .toList();
        assertThat(sending).hasSize(1);
        return sending.getFirst();
    }

    private static Map<ServiceProcess, Double> sendfileCounts() {
        Map<ServiceProcess, Double> counts = new java.util.HashMap<>();
        for (ServiceProcess catalog : cluster.catalogs) {
            Http.Response metric =
                    http.get(catalog.baseUrl() + "/actuator/metrics/agora.files.downloads?tag=how:sendfile");
            counts.put(catalog, Metrics.firstMeasurement(metric).orElse(0));
        }
        return counts;
    }

    private static String url(long book, String name) {
        return frontend + path(book, name);
    }

    private static String path(long book, String name) {
        return "/api/books/" + book + "/files/" + name;
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
