package dev.agora.perf.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Which commit a tree's jars were built from, as reports name it. */
public final class Commits {

    static final String REPORTS = "perf/reports";

    private Commits() {}

    /**
     * {@code git rev-parse --short HEAD} of the tree, with " with uncommitted changes" when its tracked files differ
     * from that commit (its jars may then not be that commit's); "unknown" outside a git checkout. Changes under
     * {@value #REPORTS} do not count: they are the reports of this very sitting, written into the tree as it goes,
     * and the jars are not built from them.
     */
    public static String of(Path tree) {
        try {
            String head = git(tree, "rev-parse", "--short", "HEAD");
            if (head.isEmpty() || head.startsWith("fatal")) return "unknown";
            String changes =
                    git(tree, "status", "--porcelain", "--untracked-files=no", "--", ":(top,exclude)" + REPORTS);
            return changes.isEmpty() ? head : head + " with uncommitted changes";
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    private static String git(Path tree, String... arguments) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("git", "-C", tree.toString()));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS)) process.destroyForcibly();
        return new String(output, StandardCharsets.UTF_8).strip();
    }
}
