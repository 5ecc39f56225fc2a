package dev.agora.exchange.xml;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Decodes one request frame from bytes as they arrive: the XML's length in bytes as decimal digits,
 * {@code \n} (a {@code \r} before it is tolerated), then that many bytes. The length is checked against the
 * maximum before any body byte is taken, and the body buffer grows only as bytes actually arrive, so a lying
 * length costs nothing. Timeouts are the caller's (it owns the clock); this class only says what to answer.
 */
final class FrameDecoder {

    private static final int MAX_LENGTH_DIGITS = 10;
    private static final int FIRST_CHUNK = 4096;

    private final int maxMessageBytes;
    private long length;
    private int digits;
    private boolean carriageReturn;
    private byte[] body;
    private int received;

    FrameDecoder(int maxMessageBytes) {
        this.maxMessageBytes = maxMessageBytes;
    }

    /**
     * Takes bytes from {@code in} up to the end of the frame (never beyond it).
     *
     * @return true once the whole frame has arrived
     */
    boolean feed(ByteBuffer in) throws ProtocolException {
        while (body == null) {
            if (!in.hasRemaining()) return false;
            lengthByte(in.get());
        }
        while (received < length && in.hasRemaining()) {
            if (received == body.length) body = Arrays.copyOf(body, (int) Math.min(length, body.length * 2L));
            int n = Math.min(in.remaining(), body.length - received);
            in.get(body, received, n);
            received += n;
        }
        return received == length;
    }

    /** The XML bytes of a complete frame. */
    byte[] body() {
        return body;
    }

    /** What to answer a client that stopped sending before the frame was complete. */
    String endOfStream() {
        if (carriageReturn) return "length line must end with \\n";
        if (body == null) return "stream ended before the length line ended";
        return "stream ended after " + received + " of " + length + " bytes";
    }

    /** What to answer a client that sent nothing for longer than the read timeout. */
    String timedOut() {
        if (body == null) return "read timeout before the length line ended";
        return "read timeout after " + received + " of " + length + " bytes";
    }

    private void lengthByte(byte c) throws ProtocolException {
        if (carriageReturn) {
            if (c != '\n') throw new ProtocolException("length line must end with \\n");
            endOfLength();
            return;
        }
        if (c == '\r') {
            carriageReturn = true;
            return;
        }
        if (c == '\n') {
            endOfLength();
            return;
        }
        if (c < '0' || c > '9') throw new ProtocolException("length line must be decimal digits");
        if (++digits > MAX_LENGTH_DIGITS) throw new ProtocolException("length is too large");
        length = length * 10 + (c - '0');
        if (length > maxMessageBytes) {
            throw new ProtocolException("message is larger than the maximum of " + maxMessageBytes + " bytes");
        }
    }

    private void endOfLength() throws ProtocolException {
        if (digits == 0) throw new ProtocolException("length line has no digits");
        carriageReturn = false;
        body = new byte[(int) Math.min(length, FIRST_CHUNK)];
    }
}
