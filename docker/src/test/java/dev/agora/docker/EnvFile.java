package dev.agora.docker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** A compose env file ({@code KEY=value} lines; blank lines and {@code #} comments ignored). */
final class EnvFile {

    private EnvFile() {}

    static Map<String, String> read(Path file) {
        try {
            return parse(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Map<String, String> parse(String text) {
        Map<String, String> variables = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) continue;
            int equals = trimmed.indexOf('=');
            if (equals < 1) throw new IllegalArgumentException("Not a KEY=value line: " + line);
            variables.put(
                    trimmed.substring(0, equals).strip(),
                    trimmed.substring(equals + 1).strip());
        }
        return variables;
    }
}
