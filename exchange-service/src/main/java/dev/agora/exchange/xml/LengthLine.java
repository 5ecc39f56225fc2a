package dev.agora.exchange.xml;

/**
 * The frame's first line: the XML's length in bytes as decimal digits, then {@code \n} (a {@code \r} before it is
 * tolerated). Fed one byte at a time; the length is checked against the maximum as each digit arrives, so a frame
 * claiming 2^40 bytes is refused after its sixth digit and nothing is ever allocated for the declared length.
 */
final class LengthLine {

    private static final int MAX_LENGTH_DIGITS = 10;

    private final int maxMessageBytes;
    private long length;
    private int digits;
    private boolean carriageReturn;
    private boolean complete;

    LengthLine(int maxMessageBytes) {
        this.maxMessageBytes = maxMessageBytes;
    }

    /** @return true when this byte ended the line */
    boolean feed(byte c) throws ProtocolException {
        if (carriageReturn) {
            if (c != '\n') throw new ProtocolException("length line must end with \\n");
            return end();
        }
        if (c == '\r') {
            carriageReturn = true;
            return false;
        }
        if (c == '\n') return end();
        if (c < '0' || c > '9') throw new ProtocolException("length line must be decimal digits");
        if (++digits > MAX_LENGTH_DIGITS) throw new ProtocolException("length is too large");
        length = length * 10 + (c - '0');
        if (length > maxMessageBytes) {
            throw new ProtocolException("message is larger than the maximum of " + maxMessageBytes + " bytes");
        }
        return false;
    }

    boolean complete() {
        return complete;
    }

    /** The declared length; valid once {@link #complete()}. */
    int length() {
        return (int) length;
    }

    /** What to answer a client whose stream ended; {@code received} body bytes had arrived. */
    String endOfStream(int received) {
        if (carriageReturn) return "length line must end with \\n";
        if (!complete) return "stream ended before the length line ended";
        return "stream ended after " + received + " of " + length + " bytes";
    }

    /** What to answer a client that sent nothing for longer than the read timeout. */
    String timedOut(int received) {
        if (!complete) return "read timeout before the length line ended";
        return "read timeout after " + received + " of " + length + " bytes";
    }

    private boolean end() throws ProtocolException {
        if (digits == 0) throw new ProtocolException("length line has no digits");
        carriageReturn = false;
        complete = true;
        return true;
    }
}
