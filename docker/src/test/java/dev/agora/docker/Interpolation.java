package dev.agora.docker;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compose's variable substitution, so the checks see the values compose would use: {@code $$} (a literal
 * dollar), {@code $VAR}, {@code ${VAR}}, {@code ${VAR:-default}}, {@code ${VAR-default}}, {@code ${VAR:?error}}
 * and {@code ${VAR?error}}.
 */
final class Interpolation {

    private static final Pattern VARIABLE =
            Pattern.compile("\\$(?:(\\$)|\\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?}|([A-Za-z_][A-Za-z0-9_]*))");

    private Interpolation() {}

    static String resolve(String text, Map<String, String> variables) {
        Matcher matcher = VARIABLE.matcher(text);
        StringBuilder resolved = new StringBuilder();
        while (matcher.find()) {
            String replacement = matcher.group(1) != null ? "$" : substitute(matcher, variables);
            matcher.appendReplacement(resolved, Matcher.quoteReplacement(replacement));
        }
        matcher.appendTail(resolved);
        return resolved.toString();
    }

    /**
     * A resolved deep copy of a parsed YAML tree. The copy shares no nodes, even where the file used YAML
     * aliases, so a check may change one service without changing another. With {@code variables} null,
     * strings are copied as written.
     */
    static Object resolveTree(Object node, Map<String, String> variables) {
        if (node instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((key, value) -> copy.put(String.valueOf(key), resolveTree(value, variables)));
            return copy;
        }
        if (node instanceof List<?> list) {
            List<Object> copy = new ArrayList<>();
            list.forEach(item -> copy.add(resolveTree(item, variables)));
            return copy;
        }
        if (node instanceof String text) return variables == null ? text : resolve(text, variables);
        return node;
    }

    private static String substitute(Matcher matcher, Map<String, String> variables) {
        String name = matcher.group(2) != null ? matcher.group(2) : matcher.group(5);
        String operator = matcher.group(3);
        String argument = matcher.group(4);
        String value = variables.get(name);
        if (operator == null) return value == null ? "" : value;
        boolean missing = operator.startsWith(":") ? value == null || value.isEmpty() : value == null;
        if (!missing) return value;
        if (operator.endsWith("-")) return argument;
        throw new IllegalArgumentException("Required variable " + name + " is not set: " + argument);
    }
}
