package dev.agora.frontend.web.publish;

import dev.agora.frontend.web.PublicApi;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.springframework.stereotype.Component;

/**
 * An upload from the publish page, passed on to the public API's upload ({@code PUT /api/books/{id}/files/{name}})
 * as it arrives: the browser's body becomes the request body through the JDK's HTTP client, which reads it as it
 * sends, so memory stays constant whatever the file's size. The API's answer (the file, or a problem) goes back to
 * the page's script as it was.
 */
@Component
class FileRelay {

    private final PublicApi api;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    FileRelay(PublicApi api) {
        this.api = api;
    }

    void upload(long bookId, HttpServletRequest request, HttpServletResponse response, String bearer)
            throws IOException {
        String uri = request.getRequestURI();
        String encodedName = uri.substring(uri.lastIndexOf('/') + 1);
        long length = request.getContentLengthLong();
        InputStream body = request.getInputStream();
        HttpRequest.BodyPublisher publisher = length >= 0
                ? HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofInputStream(() -> body), length)
                : HttpRequest.BodyPublishers.ofInputStream(() -> body);
        String type = request.getContentType();
        HttpRequest.Builder upload = HttpRequest.newBuilder(api.at("/api/books/" + bookId + "/files/" + encodedName))
                .header("Authorization", "Bearer " + bearer)
                .header("Content-Type", type == null || type.isBlank() ? "application/octet-stream" : type)
                .PUT(publisher);
        HttpResponse<byte[]> answer;
        try {
            answer = http.send(upload.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            response.sendError(503);
            return;
        } catch (IOException failed) {
            response.setStatus(503);
            response.setContentType("application/json");
            response.getOutputStream()
                    .write("{\"detail\":\"The upload did not complete; nothing was registered\"}".getBytes());
            return;
        }
        response.setStatus(answer.statusCode());
        answer.headers().firstValue("Content-Type").ifPresent(response::setContentType);
        response.getOutputStream().write(answer.body());
    }
}
