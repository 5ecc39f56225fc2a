package dev.agora.frontend.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agora.frontend.cluster.Books;
import dev.agora.frontend.cluster.BookstoreCluster;
import dev.agora.frontend.cluster.Http;
import dev.agora.frontend.cluster.Metrics;
import dev.agora.local.process.ServiceProcess;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Small files answered from the frontend's memory, on the real cluster: after an upload through a frontend, or one
 * download through it, every later download of the file through that frontend (whole, ranges, conditional, HEAD)
 * leaves the catalogs' request counts where they were, and answers what a catalog node answers to the same request,
 * header for header; a name given new content, through this frontend or another, serves the new bytes; a file above
 * the size limit keeps streaming from a catalog.
 */
class SmallFilesFromMemoryTest {

    private static final List<String> DOWNLOAD_HEADERS = List.of(
            "content-type",
            "content-length",
            "content-range",
            "content-disposition",
            "etag",
            "last-modified",
            "accept-ranges",
            "cache-control");

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
    static void close() throws Exception {
        http.close();
    }

    @Test
    void aSmallFileUploadedThroughAFrontendIsAnsweredFromItsMemoryFromTheFirstDownloadAsACatalogAnswersIt() {
        assumeTrue(cluster.catalogs.stream().allMatch(ServiceProcess::isAlive), "needs every catalog");
        cluster.awaitCachesLeased();
        long book = Books.register(http, cluster, "Kept in memory", 1);
        int size = 1024;
        assertThat(FileTransfer.upload(url(book, "small%20one.txt"), size, 21, admin)
                        .statusCode())
                .isEqualTo(201);
        String etag = "\"" + FileTransfer.sha256(size, 21) + "\"";
        List<String[]> requests = List.of(
                new String[0],
                new String[] {"Range", "bytes=100-199"},
                new String[] {"Range", "bytes=-1"},
                new String[] {"Range", "bytes=0-"},
                new String[] {"Range", "bytes=1000-5000"},
                new String[] {"Range", "bytes=100-199", "If-Range", etag},
                new String[] {"Range", "bytes=100-199", "If-Range", "\"another\""},
                new String[] {"Range", "bytes=1024-"},
                new String[] {"If-None-Match", etag},
                new String[] {"If-None-Match", "\"another\""});
        // What a catalog node answers directly, for each request.
        List<HttpResponse<byte[]>> fromCatalog = new ArrayList<>();
        for (String[] headers : requests) {
            fromCatalog.add(FileTransfer.downloadBytes(
                    cluster.catalogs.getFirst().baseUrl() + "/books/" + book + "/files/small%20one.txt", headers));
        }
        double catalogRequests = catalogDownloadRequests();

        HttpResponse<byte[]> first = FileTransfer.downloadBytes(url(book, "small%20one.txt"));
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(FileTransfer.sha256(new java.io.ByteArrayInputStream(first.body())))
                .isEqualTo(FileTransfer.sha256(size, 21));

        for (int i = 0; i < requests.size(); i++) {
            HttpResponse<byte[]> fromMemory = FileTransfer.downloadBytes(url(book, "small%20one.txt"), requests.get(i));
            HttpResponse<byte[]> expected = fromCatalog.get(i);
            String what = Arrays.toString(requests.get(i));
            assertThat(fromMemory.statusCode()).as(what).isEqualTo(expected.statusCode());
            assertThat(downloadHeaders(fromMemory)).as(what).isEqualTo(downloadHeaders(expected));
            assertThat(fromMemory.body()).as(what).isEqualTo(expected.body());
        }
        assertThat(fromCatalog.get(1).body()).hasSize(100);
        assertThat(fromCatalog.get(7).statusCode()).isEqualTo(416);
        assertThat(fromCatalog.get(8).statusCode()).isEqualTo(304);
        HttpResponse<byte[]> head = FileTransfer.head(url(book, "small%20one.txt"));
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.headers().firstValueAsLong("Content-Length")).hasValue(size);
        assertThat(head.body()).isEmpty();

        assertThat(catalogDownloadRequests())
                .as("downloads of a file uploaded through this frontend never reach a catalog, the first one neither")
                .isEqualTo(catalogRequests);
    }

    @Test
    void aSmallFileRegisteredThroughAnotherFrontendIsKeptFromItsFirstDownload() {
        assumeTrue(cluster.catalogs.stream().allMatch(ServiceProcess::isAlive), "needs every catalog");
        cluster.awaitCachesLeased();
        long book = Books.register(http, cluster, "Kept after one download", 1);
        assertThat(FileTransfer.upload(otherUrl(book, "elsewhere.txt"), 700, 5, admin)
                        .statusCode())
                .isEqualTo(201);
        double before = catalogDownloadRequests();
        for (int i = 0; i < 3; i++) {
            HttpResponse<byte[]> download = FileTransfer.downloadBytes(url(book, "elsewhere.txt"));
            assertThat(hash(download.body())).isEqualTo(FileTransfer.sha256(700, 5));
        }
        assertThat(catalogDownloadRequests())
                .as("only the first download through this frontend reaches a catalog")
                .isEqualTo(before + 1);
    }

    @Test
    void aNameGivenNewContentServesTheNewBytesAndLargeFilesStillStream() {
        assumeTrue(cluster.catalogs.stream().allMatch(ServiceProcess::isAlive), "needs every catalog");
        long book = Books.register(http, cluster, "Replaced in memory", 1);
        assertThat(FileTransfer.upload(url(book, "notes.txt"), 2000, 1, admin).statusCode())
                .isEqualTo(201);
        for (int i = 0; i < 2; i++) {
            HttpResponse<byte[]> old = FileTransfer.downloadBytes(url(book, "notes.txt"));
            assertThat(hash(old.body())).isEqualTo(FileTransfer.sha256(2000, 1));
        }
        assertThat(FileTransfer.upload(url(book, "notes.txt"), 3000, 2, admin).statusCode())
                .isIn(200, 201);
        for (int i = 0; i < 2; i++) {
            HttpResponse<byte[]> replaced = FileTransfer.downloadBytes(url(book, "notes.txt"));
            assertThat(replaced.statusCode()).isEqualTo(200);
            assertThat(replaced.headers().firstValue("ETag")).hasValue("\"" + FileTransfer.sha256(3000, 2) + "\"");
            assertThat(hash(replaced.body()))
                    .as("download %d after the new content", i)
                    .isEqualTo(FileTransfer.sha256(3000, 2));
        }

        // New content through the other frontend: the catalog tells this one which name changed, at which revision.
        assertThat(FileTransfer.upload(otherUrl(book, "notes.txt"), 1500, 4, admin)
                        .statusCode())
                .isEqualTo(200);
        HttpResponse<byte[]> fromOther = FileTransfer.downloadBytes(url(book, "notes.txt"));
        assertThat(hash(fromOther.body()))
                .as("content registered through another frontend")
                .isEqualTo(FileTransfer.sha256(1500, 4));

        int large = 65 * 1024; // above the 64 KB kept at most
        assertThat(FileTransfer.upload(url(book, "large.bin"), large, 3, admin).statusCode())
                .isEqualTo(201);
        FileTransfer.downloadBytes(url(book, "large.bin"));
        double before = catalogDownloadRequests();
        HttpResponse<byte[]> again = FileTransfer.downloadBytes(url(book, "large.bin"));
        assertThat(hash(again.body())).isEqualTo(FileTransfer.sha256(large, 3));
        assertThat(catalogDownloadRequests()).isEqualTo(before + 1);
    }

    private static Map<String, String> downloadHeaders(HttpResponse<byte[]> response) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String name : DOWNLOAD_HEADERS) {
            response.headers().firstValue(name).ifPresent(value -> headers.put(name, value));
        }
        return headers;
    }

    /** Download requests every catalog node has answered (whatever the status), from its own metrics. */
    private static double catalogDownloadRequests() {
        double sum = 0;
        for (ServiceProcess catalog : cluster.catalogs) {
            Http.Response metric = http.get(catalog.baseUrl()
                    + "/actuator/metrics/http.server.requests?tag=uri:/books/%7Bid%7D/files/%7Bname%7D");
            sum += Metrics.firstMeasurement(metric).orElse(0); // 404: no download yet on that node
        }
        return sum;
    }

    private static String hash(byte[] body) {
        return FileTransfer.sha256(new java.io.ByteArrayInputStream(body));
    }

    private static String url(long book, String name) {
        return frontend + "/api/books/" + book + "/files/" + name;
    }

    /** The same file through the other caching frontend. */
    private static String otherUrl(long book, String name) {
        return cluster.frontend(1) + "/api/books/" + book + "/files/" + name;
    }
}
