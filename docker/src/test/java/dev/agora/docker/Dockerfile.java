package dev.agora.docker;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A Dockerfile as a list of instructions, each tagged with the build stage it belongs to (0 for the first
 * FROM). Continuation lines are joined and comments dropped, as the Docker builder does.
 */
record Dockerfile(String name, List<Instruction> instructions) {

    record Instruction(int stage, String keyword, String arguments) {}

    static Dockerfile parse(String name, String text) {
        List<Instruction> instructions = new ArrayList<>();
        int stage = -1;
        StringBuilder pending = new StringBuilder();
        for (String line : text.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.startsWith("#") || (trimmed.isEmpty() && pending.isEmpty())) continue;
            if (trimmed.endsWith("\\")) {
                pending.append(trimmed, 0, trimmed.length() - 1).append(' ');
                continue;
            }
            pending.append(trimmed);
            String instruction = pending.toString().strip();
            pending.setLength(0);
            if (instruction.isEmpty()) continue;
            String[] parts = instruction.split("\\s+", 2);
            String keyword = parts[0].toUpperCase(Locale.ROOT);
            if (keyword.equals("FROM")) stage++;
            instructions.add(new Instruction(stage, keyword, parts.length > 1 ? parts[1] : ""));
        }
        return new Dockerfile(name, List.copyOf(instructions));
    }

    int stageCount() {
        return (int)
                instructions.stream().filter(i -> i.keyword().equals("FROM")).count();
    }

    List<Instruction> stage(int index) {
        return instructions.stream().filter(i -> i.stage() == index).toList();
    }

    List<Instruction> finalStage() {
        return stage(stageCount() - 1);
    }

    List<Instruction> buildStages() {
        return instructions.stream().filter(i -> i.stage() < stageCount() - 1).toList();
    }

    /** The image the final stage starts from (the runtime base image). */
    Optional<String> runtimeBaseImage() {
        return finalStage().stream()
                .filter(i -> i.keyword().equals("FROM"))
                .map(i -> i.arguments().split("\\s+")[0])
                .findFirst();
    }

    static List<Instruction> withKeyword(List<Instruction> instructions, String keyword) {
        return instructions.stream().filter(i -> i.keyword().equals(keyword)).toList();
    }
}
