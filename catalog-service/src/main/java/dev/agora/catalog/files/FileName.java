package dev.agora.catalog.files;

import java.util.Optional;

/**
 * What a file of a book may be called. A name is one path segment that every file system and object store keeps
 * as it is: 1 to 255 characters, no slash or backslash, no control or format characters, not {@code .} or
 * {@code ..}, no leading or trailing white space. The bytes are stored under their hash, never under this name,
 * so the rules are about what a client can be answered with, not about reaching outside a directory.
 */
final class FileName {

    static final int MAX_LENGTH = 255;

    private FileName() {}

    /** Why the name is refused, or empty when it is fine. */
    static Optional<String> problem(String name) {
        if (name == null || name.isEmpty()) return Optional.of("A file name must not be empty");
        if (name.length() > MAX_LENGTH) return Optional.of("A file name has at most " + MAX_LENGTH + " characters");
        if (name.equals(".") || name.equals("..")) return Optional.of("'.' and '..' are not file names");
        if (!name.strip().equals(name)) return Optional.of("A file name must not start or end with white space");
        for (int i = 0; i < name.length(); ) {
            int c = name.codePointAt(i);
            if (c == '/' || c == '\\') return Optional.of("A file name must not contain a slash or backslash");
            int type = Character.getType(c);
            if (type == Character.CONTROL
                    || type == Character.FORMAT
                    || type == Character.SURROGATE
                    || type == Character.UNASSIGNED
                    || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR) {
                return Optional.of("A file name must not contain control or invisible characters");
            }
            i += Character.charCount(c);
        }
        return Optional.empty();
    }
}
