package dev.agora.exchange.xml;

import java.util.Arrays;

/**
 * A reply under construction, written straight into UTF-8 bytes: no XML writer, no stream, no charset
 * encoder per reply. Escapes exactly what the JDK's StAX writer escaped before ({@code < > &} everywhere,
 * {@code "} in attribute values), so replies are byte for byte what they were.
 */
final class XmlBytes {

    private byte[] bytes = new byte[256];
    private int length;

    /** {@code <name}: attributes may follow, then {@link #close} or {@link #closeEmpty}. */
    XmlBytes open(String name) {
        put('<');
        ascii(name);
        return this;
    }

    /** {@code  name="value"}, escaped; nothing when the value is null (the request did not send it). */
    XmlBytes attribute(String name, String value) {
        if (value == null) return this;
        put(' ');
        ascii(name);
        put('=');
        put('"');
        escaped(value, true);
        put('"');
        return this;
    }

    XmlBytes close() {
        put('>');
        return this;
    }

    XmlBytes closeEmpty() {
        put('/');
        put('>');
        return this;
    }

    XmlBytes end(String name) {
        put('<');
        put('/');
        ascii(name);
        put('>');
        return this;
    }

    XmlBytes text(String text) {
        escaped(text, false);
        return this;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, length);
    }

    /** Names are the protocol's own ASCII element and attribute names. */
    private void ascii(String text) {
        int n = text.length();
        ensure(n);
        for (int i = 0; i < n; i++) bytes[length++] = (byte) text.charAt(i);
    }

    private void escaped(String text, boolean inAttribute) {
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> ascii("&lt;");
                case '>' -> ascii("&gt;");
                case '&' -> ascii("&amp;");
                case '"' -> {
                    if (inAttribute) ascii("&quot;");
                    else put('"');
                }
                default -> {
                    if (c < 0x80) {
                        put(c);
                    } else if (Character.isHighSurrogate(c)
                            && i + 1 < n
                            && Character.isLowSurrogate(text.charAt(i + 1))) {
                        utf8(Character.toCodePoint(c, text.charAt(++i)));
                    } else if (Character.isSurrogate(c)) {
                        // Half a pair has no UTF-8 form (parsed input never holds one): replaced, as String.getBytes
                        // does.
                        put('?');
                    } else {
                        utf8(c);
                    }
                }
            }
        }
    }

    private void utf8(int codePoint) {
        ensure(4);
        if (codePoint < 0x800) {
            bytes[length++] = (byte) (0xC0 | (codePoint >> 6));
        } else if (codePoint < 0x10000) {
            bytes[length++] = (byte) (0xE0 | (codePoint >> 12));
            bytes[length++] = (byte) (0x80 | ((codePoint >> 6) & 0x3F));
        } else {
            bytes[length++] = (byte) (0xF0 | (codePoint >> 18));
            bytes[length++] = (byte) (0x80 | ((codePoint >> 12) & 0x3F));
            bytes[length++] = (byte) (0x80 | ((codePoint >> 6) & 0x3F));
        }
        bytes[length++] = (byte) (0x80 | (codePoint & 0x3F));
    }

    private void put(char c) {
        ensure(1);
        bytes[length++] = (byte) c;
    }

    private void ensure(int more) {
        if (length + more > bytes.length) bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
    }
}
