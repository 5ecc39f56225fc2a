package dev.agora.exchange.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A client of the exchange's XML protocol: one connection per request, reply read to end of stream. */
public record XmlClient(String host, int port) {

    public static XmlClient local(int port) {
        return new XmlClient("127.0.0.1", port);
    }

    /** Sends a well-framed request and returns the reply. */
    public String send(String xml) {
        byte[] body = xml.getBytes(StandardCharsets.UTF_8);
        byte[] header = (body.length + "\n").getBytes(StandardCharsets.US_ASCII);
        byte[] frame = new byte[header.length + body.length];
        System.arraycopy(header, 0, frame, 0, header.length);
        System.arraycopy(body, 0, frame, header.length, body.length);
        return sendRaw(frame);
    }

    /** Sends bytes as they are (for bad framing), half-closes, and returns what the server replied before closing. */
    public String sendRaw(byte[] bytes) {
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            out.write(bytes);
            out.flush();
            socket.shutdownOutput();
            return readAll(socket.getInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress(host, port), 5_000);
        socket.setSoTimeout(30_000);
        socket.setTcpNoDelay(true);
        return socket;
    }

    /**
     * A connection from another loopback address ({@code 127.0.0.2}, ...): to the server a client of its own, as
     * far as per-address limits go.
     */
    public Socket connectFrom(String localAddress, int receiveBuffer) throws IOException {
        Socket socket = new Socket();
        if (receiveBuffer > 0) socket.setReceiveBufferSize(receiveBuffer);
        socket.bind(new InetSocketAddress(localAddress, 0));
        socket.connect(new InetSocketAddress(host, port), 10_000);
        socket.setSoTimeout(30_000);
        socket.setTcpNoDelay(true);
        return socket;
    }

    /** The frame of a request: its length in bytes, a newline, the XML. */
    public static byte[] frame(String xml) {
        byte[] body = xml.getBytes(StandardCharsets.UTF_8);
        byte[] header = (body.length + "\n").getBytes(StandardCharsets.US_ASCII);
        byte[] frame = new byte[header.length + body.length];
        System.arraycopy(header, 0, frame, 0, header.length);
        System.arraycopy(body, 0, frame, header.length, body.length);
        return frame;
    }

    public static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream reply = new ByteArrayOutputStream();
        in.transferTo(reply);
        return reply.toString(StandardCharsets.UTF_8);
    }
}
