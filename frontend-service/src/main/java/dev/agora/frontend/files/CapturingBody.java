package dev.agora.frontend.files;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * An upload's body read through on its way to a catalog, with a copy of its bytes kept up to the length it declared:
 * a small file registered through this frontend is then answered from memory on its first download too. A body
 * longer than it declared, or skipped over, leaves no copy.
 */
final class CapturingBody extends FilterInputStream {

    private final byte[] copy;
    private int length;
    private boolean incomplete;

    CapturingBody(InputStream body, int declaredLength) {
        super(body);
        this.copy = new byte[declaredLength];
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) append(new byte[] {(byte) b}, 0, 1);
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int count) throws IOException {
        int read = super.read(buffer, offset, count);
        if (read > 0) append(buffer, offset, read);
        return read;
    }

    @Override
    public long skip(long count) throws IOException {
        long skipped = super.skip(count);
        if (skipped > 0) incomplete = true;
        return skipped;
    }

    private void append(byte[] buffer, int offset, int count) {
        if (incomplete || length + count > copy.length) {
            incomplete = true;
            return;
        }
        System.arraycopy(buffer, offset, copy, length, count);
        length += count;
    }

    /** The whole body as read, or null when it was not read whole to exactly its declared length. */
    byte[] whole() {
        return incomplete || length != copy.length ? null : copy;
    }
}
