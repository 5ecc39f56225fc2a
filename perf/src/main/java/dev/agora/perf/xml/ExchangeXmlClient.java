package dev.agora.perf.xml;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A client of the exchange's XML protocol (EXCHANGE-PROTOCOL.md): one TCP connection per request, the
 * request framed as its length in bytes, a newline and the XML; the reply read to end of stream.
 */
public final class ExchangeXmlClient {

    /** Replies beyond this size are a broken server, not a big answer: stop reading rather than run out of memory. */
    private static final int MAX_REPLY_BYTES = 16 * 1024 * 1024;

    private final InetSocketAddress address;
    private final int timeoutMillis;

    public ExchangeXmlClient(String host, int port, Duration timeout) {
        this.address = new InetSocketAddress(host, port);
        this.timeoutMillis = Math.toIntExact(timeout.toMillis());
    }

    /** Sends one request and returns the server's whole reply. */
    public String send(String xml) throws IOException {
        byte[] framed = frame(xml);
        try (Socket socket = new Socket()) {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(timeoutMillis);
            socket.connect(address, timeoutMillis);
            // One write, so one segment: with TCP_NODELAY the length line and the body written apart would
            // leave as two segments, and the server could wake up for each.
            socket.getOutputStream().write(framed);
            return readToEnd(socket.getInputStream());
        }
    }

    /** The request as sent: its length in bytes, a newline, the XML. */
    static byte[] frame(String xml) {
        byte[] body = xml.getBytes(StandardCharsets.UTF_8);
        byte[] prefix = (body.length + "\n").getBytes(StandardCharsets.US_ASCII);
        byte[] framed = new byte[prefix.length + body.length];
        System.arraycopy(prefix, 0, framed, 0, prefix.length);
        System.arraycopy(body, 0, framed, prefix.length, body.length);
        return framed;
    }

    private static String readToEnd(InputStream in) throws IOException {
        ByteArrayOutputStream reply = new ByteArrayOutputStream(512);
        byte[] buffer = new byte[8192];
        int read;
        while ((read = in.read(buffer)) != -1) {
            reply.write(buffer, 0, read);
            if (reply.size() > MAX_REPLY_BYTES) throw new IOException("reply larger than " + MAX_REPLY_BYTES);
        }
        return reply.toString(StandardCharsets.UTF_8);
    }
}
