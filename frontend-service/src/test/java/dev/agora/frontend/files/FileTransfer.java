package dev.agora.frontend.files;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Random;
import java.util.function.Supplier;

/** Test-side transfers of book files: uploads generated as they are sent, downloads hashed as they arrive. */
final class FileTransfer {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private FileTransfer() {}

    /** {@code size} pseudo-random bytes of a seed, made as they are read (a 1 GB one is never in memory). */
    static InputStream content(long size, long seed) {
        return new InputStream() {
            private final Random random = new Random(seed);
            private final byte[] block = new byte[8192];
            private int inBlock = block.length;
            private long left = size;

            @Override
            public int read() {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] buffer, int offset, int length) {
                if (left == 0) return -1;
                if (inBlock == block.length) {
                    random.nextBytes(block);
                    inBlock = 0;
                }
                int n = (int) Math.min(Math.min(length, block.length - inBlock), left);
                System.arraycopy(block, inBlock, buffer, offset, n);
                inBlock += n;
                left -= n;
                return n;
            }
        };
    }

    static String sha256(InputStream in) {
        try (in) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[64 * 1024];
            for (int read; (read = in.read(buffer)) >= 0; ) digest.update(buffer, 0, read);
            return HexFormat.of().formatHex(digest.digest());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String sha256(long size, long seed) {
        return sha256(content(size, seed));
    }

    static HttpResponse<String> upload(String url, long size, long seed, String authorization) {
        Supplier<InputStream> body = () -> content(size, seed);
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/octet-stream")
                .PUT(HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofInputStream(body), size));
        if (authorization != null) request.header("Authorization", authorization);
        return send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** An upload of these bytes under the type its uploader names. */
    static HttpResponse<String> upload(String url, byte[] content, String contentType, String authorization) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", contentType)
                .header("Authorization", authorization)
                .PUT(HttpRequest.BodyPublishers.ofByteArray(content));
        return send(request, HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<InputStream> download(String url, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).GET();
        for (int i = 0; i < headers.length; i += 2) request.header(headers[i], headers[i + 1]);
        return send(request, HttpResponse.BodyHandlers.ofInputStream());
    }

    static HttpResponse<byte[]> downloadBytes(String url, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).GET();
        for (int i = 0; i < headers.length; i += 2) request.header(headers[i], headers[i + 1]);
        return send(request, HttpResponse.BodyHandlers.ofByteArray());
    }

    static HttpResponse<byte[]> head(String url) {
        return send(
                HttpRequest.newBuilder(URI.create(url)).method("HEAD", HttpRequest.BodyPublishers.noBody()),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    private static <T> HttpResponse<T> send(HttpRequest.Builder request, HttpResponse.BodyHandler<T> handler) {
        try {
            return HTTP.send(request.timeout(Duration.ofMinutes(10)).build(), handler);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
