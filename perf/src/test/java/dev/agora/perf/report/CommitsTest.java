package dev.agora.perf.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommitsTest {

    @TempDir
    Path tree;

    private String head;

    @BeforeEach
    void commitATreeWithReports() throws Exception {
        Files.createDirectories(tree.resolve("perf/reports"));
        Files.writeString(tree.resolve("Service.java"), "class Service {}");
        Files.writeString(tree.resolve("perf/reports/cache.md"), "old run");
        git("init", "-q");
        git("add", ".");
        git("-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "Start");
        head = git("rev-parse", "--short", "HEAD");
    }

    @Test
    void aCleanTreeIsNamedByItsCommit() {
        assertThat(Commits.of(tree)).isEqualTo(head);
    }

    @Test
    void reportsRewrittenDuringASittingLeaveTheCommitClean() throws IOException {
        Files.writeString(tree.resolve("perf/reports/cache.md"), "this sitting's run");

        assertThat(Commits.of(tree)).isEqualTo(head);
    }

    @Test
    void aChangedSourceMarksTheCommitAsNotTheJars() throws IOException {
        Files.writeString(tree.resolve("Service.java"), "class Service { int changed; }");

        assertThat(Commits.of(tree)).isEqualTo(head + " with uncommitted changes");
    }

    @Test
    void aSubfolderOfTheTreeNamesTheSameCommit() throws IOException {
        Files.writeString(tree.resolve("perf/reports/cache.md"), "this sitting's run");

        assertThat(Commits.of(tree.resolve("perf"))).isEqualTo(head);
    }

    private String git(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("git", "-C", tree.toString()));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes()).strip();
        assertThat(process.waitFor()).as(output).isZero();
        return output;
    }
}
