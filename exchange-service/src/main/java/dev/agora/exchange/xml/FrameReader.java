package dev.agora.exchange.xml;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Arrays;

/**
 * Reads one request frame: the XML's length in bytes as decimal digits, {@code \n} (a {@code \r} before it
 * is tolerated), then that many bytes. The length is checked against the maximum before any body byte is
 * read, and the buffer grows only as bytes actually arrive, so a lying length costs nothing. Every read is
 * bounded by the socket timeout and the whole frame by a deadline, so a slow client cannot hold a
 * connection slot for long.
 */
final class FrameReader {

    private static final int MAX_LENGTH_DIGITS = 10;
    private static final int FIRST_CHUNK = 4096;

    private final int maxMessageBytes;
    private final long readTimeoutMillis;
    private final long frameDeadlineMillis;

    FrameReader(int maxMessageBytes, long readTimeoutMillis, long frameDeadlineMillis) {
        this.maxMessageBytes = maxMessageBytes;
        this.readTimeoutMillis = readTimeoutMillis;
        this.frameDeadlineMillis = frameDeadlineMillis;
    }

    byte[] read(Socket socket, InputStream in) throws IOException, ProtocolException {
        long deadline = System.nanoTime() + frameDeadlineMillis * 1_000_000;
        int length = readLength(socket, in, deadline);
        byte[] body = new byte[Math.min(length, FIRST_CHUNK)];
        int received = 0;
        while (received < length) {
            if (received == body.length) body = Arrays.copyOf(body, Math.min(length, body.length * 2));
            armTimeout(socket, deadline);
            int n;
            try {
                n = in.read(body, received, body.length - received);
            } catch (SocketTimeoutException e) {
                throw new ProtocolException("read timeout after " + received + " of " + length + " bytes");
            }
            if (n < 0) throw new ProtocolException("stream ended after " + received + " of " + length + " bytes");
            received += n;
        }
        return body;
    }

    private int readLength(Socket socket, InputStream in, long deadline) throws IOException, ProtocolException {
        long length = 0;
        int digits = 0;
        while (true) {
            armTimeout(socket, deadline);
            int c;
            try {
                c = in.read();
            } catch (SocketTimeoutException e) {
                throw new ProtocolException("read timeout before the length line ended");
            }
            if (c < 0) throw new ProtocolException("stream ended before the length line ended");
            if (c == '\n' || c == '\r') {
                if (c == '\r' && in.read() != '\n') throw new ProtocolException("length line must end with \\n");
                if (digits == 0) throw new ProtocolException("length line has no digits");
                return (int) length;
            }
            if (c < '0' || c > '9') throw new ProtocolException("length line must be decimal digits");
            if (++digits > MAX_LENGTH_DIGITS) throw new ProtocolException("length is too large");
            length = length * 10 + (c - '0');
            if (length > maxMessageBytes) {
                throw new ProtocolException("message is larger than the maximum of " + maxMessageBytes + " bytes");
            }
        }
    }

    private void armTimeout(Socket socket, long deadline) throws IOException, ProtocolException {
        long remaining = (deadline - System.nanoTime()) / 1_000_000;
        if (remaining <= 0) throw new ProtocolException("request took too long to arrive");
        socket.setSoTimeout((int) Math.max(1, Math.min(readTimeoutMillis, remaining)));
    }
}
