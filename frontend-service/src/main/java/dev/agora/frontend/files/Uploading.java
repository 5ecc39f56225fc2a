package dev.agora.frontend.files;

import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.util.List;
import org.apache.hc.client5.http.classic.methods.HttpPut;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.io.entity.InputStreamEntity;

/**
 * Streams an upload from the client to a catalog node as it arrives: the request body is the catalog request's
 * body, so no more than a buffer of it is ever in this heap. A node that refuses the connection is passed over
 * for the next (nothing of the body was read yet); once bytes flowed the upload cannot be repeated, and a failure
 * is the answer.
 */
final class Uploading {

    private final CloseableHttpClient http;
    private final CatalogNodes nodes;

    Uploading(CloseableHttpClient http, CatalogNodes nodes) {
        this.http = http;
        this.nodes = nodes;
    }

    /**
     * The catalog's answer, open; the caller reads and closes it.
     *
     * @param body the request's body, or a stream reading it through
     */
    ClassicHttpResponse send(String catalogPath, HttpServletRequest request, InputStream body) throws IOException {
        IOException last = new ConnectException("No catalog node is known");
        List<URI> candidates = nodes.inTurn();
        for (URI node : candidates) {
            HttpPut put = new HttpPut(URI.create(node + catalogPath));
            String authorization = request.getHeader("Authorization");
            if (authorization != null) put.setHeader("Authorization", authorization);
            String type = request.getContentType();
            if (type != null) put.setHeader("Content-Type", type);
            put.setEntity(new InputStreamEntity(body, request.getContentLengthLong(), null));
            try {
                return http.executeOpen(null, put, null);
            } catch (ConnectException refused) {
                last = refused;
            }
        }
        throw last;
    }
}
