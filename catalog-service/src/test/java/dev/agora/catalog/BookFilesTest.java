package dev.agora.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * Book files on one catalog over real HTTP, with the local blob store on disk and the index in PostgreSQL: upload
 * and download byte for byte, ranges and conditional requests, refusals as problem+json, a cut-off upload, racing
 * uploads of one name, identical content stored once.
 */
class BookFilesTest extends CatalogTestSupport {

    private static final HttpClient BYTES =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @ParameterizedTest
    @ValueSource(ints = {1024, 10 * 1024 * 1024})
    void anUploadedFileDownloadsByteForByteWithItsHashAsETag(int size) {
        long book = newBook("files-roundtrip", 1).path("id").asLong();
        byte[] content = randomBytes(size, size);

        HttpResponse<String> uploaded = upload(book, "book.pdf", content, "application/pdf", admin());
        assertThat(uploaded.statusCode()).isEqualTo(201);
        JsonNode view = JSON.readTree(uploaded.body());
        assertThat(view.path("hash").asString()).isEqualTo(sha256(content));
        assertThat(view.path("size").asLong()).isEqualTo(size);
        assertThat(view.path("mediaType").asString()).isEqualTo("application/pdf");
        assertThat(uploaded.headers().firstValue("Location")).hasValue("/books/" + book + "/files/book.pdf");

        HttpResponse<byte[]> downloaded = download(book, "book.pdf");
        assertThat(downloaded.statusCode()).isEqualTo(200);
        assertThat(sha256(downloaded.body())).isEqualTo(sha256(content));
        assertThat(downloaded.headers().firstValueAsLong("Content-Length")).hasValue(size);
        assertThat(downloaded.headers().firstValue("ETag")).hasValue("\"" + sha256(content) + "\"");
        assertThat(downloaded.headers().firstValue("Content-Type")).hasValue("application/pdf");
        assertThat(downloaded.headers().firstValue("Accept-Ranges")).hasValue("bytes");
    }

    /**
     * The uploader names a file's type, and downloads come from the store's origin: a page, a script or an SVG is
     * served as bytes no browser runs, sandboxed and not loadable by other sites; an allowed type keeps its type.
     */
    @ParameterizedTest
    @CsvSource({
        "page.html, text/html, application/octet-stream",
        "run.js, text/javascript, application/octet-stream",
        "image.svg, image/svg+xml, application/octet-stream",
        "feed.xml, application/xhtml+xml, application/octet-stream",
        "book.pdf, application/pdf, application/pdf"
    })
    void anUploadedPageOrScriptDownloadsInert(String name, String uploadedType, String servedType) {
        long book = newBook("files-inert-" + name, 1).path("id").asLong();
        byte[] content = "<script>alert(document.cookie)</script>".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(upload(book, name, content, uploadedType, admin()).statusCode())
                .isEqualTo(201);

        for (HttpResponse<byte[]> downloaded : List.of(download(book, name), download(book, name))) {
            assertThat(downloaded.statusCode()).isEqualTo(200);
            assertThat(downloaded.body()).isEqualTo(content);
            assertThat(downloaded.headers().firstValue("Content-Type")).hasValue(servedType);
            assertThat(downloaded.headers().firstValue("Content-Security-Policy"))
                    .hasValue("sandbox");
            assertThat(downloaded.headers().firstValue("Cross-Origin-Resource-Policy"))
                    .hasValue("same-origin");
            assertThat(downloaded.headers().allValues("X-Content-Type-Options")).containsExactly("nosniff");
        }
    }

    /**
     * Frontends cache a book's files beside the book and small files by name: a registration reaches every frontend,
     * as a change of that file of the book (its name and the name's revision, at the book's current version: the
     * book's row is unchanged), before the upload is answered.
     */
    @Test
    void aRegistrationIsPushedToTheFrontendsAsAChangeOfTheBooksFileBeforeItIsAnswered() {
        long book = newBook("files-pushed", 1).path("id").asLong();
        int before = FRONTEND.receivedFor(book).size();

        HttpResponse<String> uploaded = upload(book, "pushed.pdf", randomBytes(100, 1), "application/pdf", admin());
        assertThat(uploaded.statusCode()).isEqualTo(201);

        for (FakeFrontend frontend : List.of(FRONTEND, OTHER_FRONTEND)) {
            List<FakeFrontend.Received> pushed = frontend.receivedFor(book);
            assertThat(pushed).isNotEmpty();
            JsonNode last = pushed.getLast().body();
            assertThat(last.path("version").asLong())
                    .isEqualTo(book(book).path("version").asLong());
            assertThat(last.path("searchAffected").asBoolean()).isFalse();
            assertThat(last.path("fileName").asString()).isEqualTo("pushed.pdf");
            assertThat(last.path("fileRevision").asString())
                    .isEqualTo(
                            uploaded.headers().firstValue("Agora-File-Revision").orElseThrow());
        }
        assertThat(FRONTEND.receivedFor(book)).hasSize(before + 1);
        assertThat(book(book).path("version").asLong())
                .as("a file leaves the book's row as it was")
                .isEqualTo(1);
    }

    @Test
    void largeFilesGoOutWithSendfileAndSmallOnesThroughABuffer() {
        long book = newBook("files-sendfile", 1).path("id").asLong();
        upload(book, "large.bin", randomBytes(1024 * 1024, 7), "application/octet-stream", admin());
        upload(book, "small.bin", randomBytes(100, 8), "application/octet-stream", admin());
        double sendfileBefore = downloads("sendfile");
        double bufferBefore = downloads("buffer");

        assertThat(download(book, "large.bin").statusCode()).isEqualTo(200);
        assertThat(download(book, "small.bin").statusCode()).isEqualTo(200);

        assertThat(downloads("sendfile")).isEqualTo(sendfileBefore + 1);
        assertThat(downloads("buffer")).isEqualTo(bufferBefore + 1);
    }

    @Test
    void rangesAnswer206WithTheBytesAskedForAnd416PastTheEnd() {
        long book = newBook("files-ranges", 1).path("id").asLong();
        byte[] content = randomBytes(200_000, 3);
        upload(book, "r.bin", content, "application/octet-stream", admin());

        assertPart(book, "bytes=0-0", content, 0, 0);
        assertPart(book, "bytes=199999-199999", content, 199_999, 199_999);
        assertPart(book, "bytes=1000-150999", content, 1000, 150_999);
        assertPart(book, "bytes=-500", content, 199_500, 199_999);
        assertPart(book, "bytes=199990-", content, 199_990, 199_999);
        // A range running past the end is cut at the end.
        assertPart(book, "bytes=199000-300000", content, 199_000, 199_999);

        HttpResponse<byte[]> beyond = download(book, "r.bin", "Range", "bytes=200000-200100");
        assertThat(beyond.statusCode()).isEqualTo(416);
        assertThat(beyond.headers().firstValue("Content-Range")).hasValue("bytes */200000");
        assertThat(beyond.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    }

    @Test
    void conditionalRequestsUseTheHashAsETag() {
        long book = newBook("files-conditional", 1).path("id").asLong();
        byte[] content = randomBytes(5000, 4);
        upload(book, "c.bin", content, "application/octet-stream", admin());
        String etag = "\"" + sha256(content) + "\"";

        HttpResponse<byte[]> unchanged = download(book, "c.bin", "If-None-Match", etag);
        assertThat(unchanged.statusCode()).isEqualTo(304);
        assertThat(unchanged.body()).isEmpty();
        assertThat(download(book, "c.bin", "If-None-Match", "\"other\"").statusCode())
                .isEqualTo(200);

        // If-Range: the part when the file is still the one the client has, else the whole file.
        HttpResponse<byte[]> resumed = download(book, "c.bin", "Range", "bytes=4000-", "If-Range", etag);
        assertThat(resumed.statusCode()).isEqualTo(206);
        assertThat(resumed.body()).hasSize(1000);
        HttpResponse<byte[]> changed = download(book, "c.bin", "Range", "bytes=4000-", "If-Range", "\"stale\"");
        assertThat(changed.statusCode()).isEqualTo(200);
        assertThat(sha256(changed.body())).isEqualTo(sha256(content));
    }

    @Test
    void identicalContentIsStoredOnceAndANameCanTakeNewContent() throws IOException {
        long book = newBook("files-dedupe", 1).path("id").asLong();
        byte[] content = randomBytes(3000, 5);
        long before = blobCount();

        assertThat(upload(book, "a.txt", content, "text/plain", admin()).statusCode())
                .isEqualTo(201);
        assertThat(upload(book, "b.txt", content, "text/plain", publisher()).statusCode())
                .isEqualTo(201);
        assertThat(blobCount()).isEqualTo(before + 1);

        long first = revision(download(book, "a.txt"));
        byte[] replacement = randomBytes(10, 6);
        HttpResponse<String> replaced = upload(book, "a.txt", replacement, "text/plain", admin());
        assertThat(replaced.statusCode()).isEqualTo(200);
        HttpResponse<byte[]> downloaded = download(book, "a.txt");
        assertThat(sha256(downloaded.body())).isEqualTo(sha256(replacement));
        assertThat(sha256(download(book, "b.txt").body())).isEqualTo(sha256(content));
        assertThat(revision(downloaded))
                .as("new content raises the name's revision, and a download says which it answered for")
                .isGreaterThan(first)
                .isEqualTo(Long.parseLong(
                        replaced.headers().firstValue("Agora-File-Revision").orElseThrow()));
    }

    /**
     * Racing registrations of one name: the name's revisions rise in the order they commit, so the last revision
     * announced for the name is the content it holds.
     */
    @Test
    void theLastRevisionAnnouncedForANameIsTheContentItHolds() throws Exception {
        long book = newBook("files-revisions", 1).path("id").asLong();
        int racers = 4;
        try (var pool = Executors.newFixedThreadPool(racers)) {
            List<Future<HttpResponse<String>>> uploads = new ArrayList<>();
            for (int i = 0; i < racers * 3; i++) {
                byte[] content = randomBytes(200, 100 + i);
                uploads.add(pool.submit(() -> upload(book, "raced.txt", content, "text/plain", admin())));
            }
            for (var upload : uploads) assertThat(upload.get().statusCode()).isIn(200, 201);
        }
        JsonNode highest = FRONTEND.receivedFor(book).stream()
                .map(FakeFrontend.Received::body)
                .filter(body -> "raced.txt".equals(body.path("fileName").asString(null)))
                .max(Comparator.comparingLong(body -> body.path("fileRevision").asLong()))
                .orElseThrow();
        HttpResponse<byte[]> held = download(book, "raced.txt");
        assertThat(revision(held)).isEqualTo(highest.path("fileRevision").asLong());
    }

    private static long revision(HttpResponse<?> response) {
        return Long.parseLong(
                response.headers().firstValue("Agora-File-Revision").orElseThrow());
    }

    @Test
    void aBooksFilesAreListedAndFoundByNameTitleOrTopic() {
        long book = newBook("files-search-topic", 1).path("id").asLong();
        upload(book, "Zebra-Notes.epub", randomBytes(100, 9), "application/epub+zip", admin());
        upload(book, "appendix.pdf", randomBytes(100, 10), "application/pdf", admin());

        Response listed = get("/books/" + book + "/files");
        assertThat(listed.status()).isEqualTo(200);
        assertThat(names(listed.json())).containsExactly("Zebra-Notes.epub", "appendix.pdf");
        assertThat(listed.json().get(0).path("hash").asString()).hasSize(64);
        assertThat(listed.json().get(0).path("title").asString()).isEqualTo("Test title");

        assertThat(names(get("/files?q=zebra-n").json())).containsExactly("Zebra-Notes.epub");
        assertThat(names(get("/files?q=files-search-topic").json()))
                .containsExactly("Zebra-Notes.epub", "appendix.pdf");
        // Wildcards are text, not patterns.
        assertThat(get("/files?q=%25").json().size()).isZero();
        assertThat(get("/files?q=zebra_").json().size()).isZero();
        // A prefix ending in a code point outside the BMP: the index range above it is still right.
        String smile = "\uD83D\uDE00";
        upload(book, smile + "-smile.txt", randomBytes(10, 11), "text/plain", admin());
        assertThat(names(get("/files?q=" + encode(smile)).json())).containsExactly(smile + "-smile.txt");
        assertThat(names(get("/files?q=" + encode(smile + "-S")).json())).containsExactly(smile + "-smile.txt");
        // A prefix with no string above it (U+10FFFF alone) is an empty range of names, answered, not an error.
        Response highest = get("/files?q=" + encode(Character.toString(Character.MAX_CODE_POINT)));
        assertThat(highest.status()).isEqualTo(200);
        assertThat(highest.json().size()).isZero();
        Response blank = get("/files?q=%20");
        assertThat(blank.status()).isEqualTo(400);
        assertThat(blank.isProblem()).isTrue();
    }

    @Test
    void aBooksFilesAreListedAPageAtATimeAfterTheLastNameSeen() {
        long book = newBook("files-pages", 1).path("id").asLong();
        for (String name : List.of("e.txt", "a.txt", "d.txt", "b.txt", "c.txt")) {
            upload(book, name, randomBytes(10, name.charAt(0)), "text/plain", admin());
        }

        assertThat(names(get("/books/" + book + "/files?limit=2").json())).containsExactly("a.txt", "b.txt");
        assertThat(names(get("/books/" + book + "/files?after=b.txt&limit=2").json()))
                .containsExactly("c.txt", "d.txt");
        assertThat(names(get("/books/" + book + "/files?after=d.txt&limit=2").json()))
                .containsExactly("e.txt");
        assertThat(names(get("/books/" + book + "/files?after=e.txt").json())).isEmpty();
        assertThat(names(get("/books/" + book + "/files").json())).hasSize(5);
        for (String bad : List.of("limit=0", "limit=1001", "limit=-1", "limit=x", "after=" + "a".repeat(256))) {
            Response refused = get("/books/" + book + "/files?" + bad);
            assertThat(refused.status()).as(bad).isEqualTo(400);
            assertThat(refused.isProblem()).as(bad).isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"..", "a%2Fb", "a%5Cb", "bad%01name", "tab%09name", "%20lead", "."})
    void badNamesAreRefusedAsProblemsAndKeepNothing(String encodedName) throws IOException {
        long book = newBook("files-bad-names", 1).path("id").asLong();
        long before = blobCount();
        HttpResponse<String> refused =
                uploadRaw("/admin/books/" + book + "/files/" + encodedName, new byte[10], admin());
        assertThat(refused.statusCode()).as(encodedName).isEqualTo(400);
        assertThat(refused.headers().firstValue("Content-Type")).as(encodedName).hasValue("application/problem+json");
        assertThat(blobCount()).isEqualTo(before);
        assertThat(get("/books/" + book + "/files").json().size()).isZero();
    }

    @Test
    void aNameOf300CharactersAndAnUnknownBookAreProblems() throws IOException {
        long book = newBook("files-long-name", 1).path("id").asLong();
        long before = blobCount();
        HttpResponse<String> tooLong = upload(book, "x".repeat(300), new byte[10], "text/plain", admin());
        assertThat(tooLong.statusCode()).isEqualTo(400);
        assertThat(tooLong.headers().firstValue("Content-Type")).hasValue("application/problem+json");

        HttpResponse<String> unknown = upload(999_999, "a.txt", new byte[10], "text/plain", admin());
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(unknown.body()).path("type").asString())
                .isEqualTo("https://agora.dev/problems/not-found");
        assertThat(download(999_999, "a.txt").statusCode()).isEqualTo(404);
        assertThat(get("/books/999999/files").isProblem()).isTrue();
        HttpResponse<byte[]> noSuchFile = download(book, "missing.txt");
        assertThat(noSuchFile.statusCode()).isEqualTo(404);
        assertThat(noSuchFile.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(blobCount()).isEqualTo(before);
    }

    @Test
    void uploadsNeedAPublisherOrAdminAndDownloadsAreOpen() throws IOException {
        long book = newBook("files-security", 1).path("id").asLong();
        long before = blobCount();
        HttpResponse<String> anonymous = uploadRaw("/admin/books/" + book + "/files/a.txt", new byte[10], null);
        assertThat(anonymous.statusCode()).isEqualTo(401);
        HttpResponse<String> customer = upload(book, "a.txt", new byte[10], "text/plain", customer());
        assertThat(customer.statusCode()).isEqualTo(403);
        HttpResponse<String> internal = uploadRaw("/internal/blobs/" + sha256(new byte[10]), new byte[10], customer());
        assertThat(internal.statusCode()).isEqualTo(403);
        assertThat(blobCount()).isEqualTo(before);
        assertThat(get("/books/" + book + "/files").json().size()).isZero();

        upload(book, "open.txt", new byte[10], "text/plain", publisher());
        assertThat(download(book, "open.txt").statusCode()).isEqualTo(200);
    }

    @Test
    void anUploadCutOffHalfwayLeavesNoFileAndNoRow() throws Exception {
        long book = newBook("files-cut-off", 1).path("id").asLong();
        long before = blobCount();
        int declared = 10 * 1024 * 1024;
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(("PUT /admin/books/" + book + "/files/cut.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                            + "Authorization: " + admin() + "\r\nContent-Type: application/octet-stream\r\n"
                            + "Content-Length: " + declared + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(randomBytes(declared / 2, 11));
            out.flush();
            // Wait until the catalog has staged some of it, then go away.
            awaitStaging(true);
        }
        awaitStaging(false);
        assertThat(blobCount()).isEqualTo(before);
        assertThat(get("/books/" + book + "/files").json().size()).isZero();
        assertThat(download(book, "cut.bin").statusCode()).isEqualTo(404);
    }

    @Test
    void twoConcurrentUploadsOfOneNameEndWithOneCompleteFile() throws Exception {
        long book = newBook("files-race", 1).path("id").asLong();
        List<byte[]> contents = List.of(randomBytes(3 * 1024 * 1024, 12), randomBytes(3 * 1024 * 1024, 13));
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            List<Future<Integer>> statuses = new ArrayList<>();
            for (byte[] content : contents) {
                statuses.add(pool.submit(() -> {
                    start.await();
                    return upload(book, "same.bin", content, "application/octet-stream", admin())
                            .statusCode();
                }));
            }
            start.countDown();
            for (Future<Integer> status : statuses) assertThat(status.get()).isIn(200, 201);
        }
        JsonNode listed = get("/books/" + book + "/files").json();
        assertThat(listed.size()).isEqualTo(1);
        String kept = listed.get(0).path("hash").asString();
        assertThat(kept).isIn(sha256(contents.get(0)), sha256(contents.get(1)));
        assertThat(sha256(download(book, "same.bin").body())).isEqualTo(kept);
    }

    private void assertPart(long book, String range, byte[] content, int first, int last) {
        HttpResponse<byte[]> part = download(book, "r.bin", "Range", range);
        assertThat(part.statusCode()).as(range).isEqualTo(206);
        assertThat(part.headers().firstValue("Content-Range"))
                .as(range)
                .hasValue("bytes " + first + "-" + last + "/" + content.length);
        assertThat(part.body()).as(range).isEqualTo(java.util.Arrays.copyOfRange(content, first, last + 1));
    }

    private double downloads(String how) {
        Response metric = get("/actuator/metrics/agora.files.downloads?tag=how:" + how);
        return metric.status() == 200
                ? metric.json().path("measurements").get(0).path("value").asDouble()
                : 0;
    }

    private static List<String> names(JsonNode files) {
        List<String> names = new ArrayList<>();
        files.forEach(f -> names.add(f.path("name").asString()));
        return names;
    }

    private static long blobCount() throws IOException {
        Path blobs = FILES.resolve("blobs");
        if (!Files.exists(blobs)) return 0;
        try (Stream<Path> all = Files.walk(blobs)) {
            return all.filter(Files::isRegularFile).count();
        }
    }

    private static void awaitStaging(boolean busy) throws Exception {
        Path staging = FILES.resolve("staging");
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            try (Stream<Path> files = Files.list(staging)) {
                if ((files.findAny().isPresent()) == busy) return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("The staging folder did not become " + (busy ? "busy" : "empty"));
    }

    private HttpResponse<String> upload(long book, String name, byte[] content, String type, String authorization) {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                        URI.create(base() + "/admin/books/" + book + "/files/" + encode(name)))
                .header("Content-Type", type)
                .header(AUTHORIZATION, authorization)
                .PUT(HttpRequest.BodyPublishers.ofByteArray(content));
        return send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** A PUT of a path sent as written (already encoded), as a client could send it. */
    private HttpResponse<String> uploadRaw(String path, byte[] content, String authorization) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(("PUT " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                            + (authorization == null ? "" : "Authorization: " + authorization + "\r\n")
                            + "Content-Type: text/plain\r\nContent-Length: " + content.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(content);
            out.flush();
            return RawResponse.read(socket.getInputStream());
        }
    }

    private HttpResponse<byte[]> download(long book, String name, String... headers) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(base() + "/books/" + book + "/files/" + encode(name)));
        for (int i = 0; i < headers.length; i += 2) request.header(headers[i], headers[i + 1]);
        return send(request.GET(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private String base() {
        return "http://127.0.0.1:" + port;
    }

    private static String encode(String name) {
        return URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static <T> HttpResponse<T> send(HttpRequest.Builder request, HttpResponse.BodyHandler<T> body) {
        try {
            return BYTES.send(request.timeout(Duration.ofSeconds(60)).build(), body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static byte[] randomBytes(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Status line, headers and body of an HTTP/1.1 answer read off a socket (Connection: close). */
    private static final class RawResponse {
        static HttpResponse<String> read(InputStream in) throws IOException {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            int status = Integer.parseInt(text.substring(9, 12));
            int end = text.indexOf("\r\n\r\n");
            java.util.Map<String, List<String>> headers = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            for (String line : text.substring(0, end).split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0) {
                    headers.computeIfAbsent(line.substring(0, colon).strip(), k -> new ArrayList<>())
                            .add(line.substring(colon + 1).strip());
                }
            }
            String body = text.substring(end + 4);
            return new SimpleResponse(status, java.net.http.HttpHeaders.of(headers, (a, b) -> true), body);
        }
    }

    private record SimpleResponse(int statusCode, java.net.http.HttpHeaders headers, String body)
            implements HttpResponse<String> {
        @Override
        public HttpRequest request() {
            return null;
        }

        @Override
        public java.util.Optional<HttpResponse<String>> previousResponse() {
            return java.util.Optional.empty();
        }

        @Override
        public java.util.Optional<javax.net.ssl.SSLSession> sslSession() {
            return java.util.Optional.empty();
        }

        @Override
        public URI uri() {
            return null;
        }

        @Override
        public HttpClient.Version version() {
            return HttpClient.Version.HTTP_1_1;
        }
    }
}
