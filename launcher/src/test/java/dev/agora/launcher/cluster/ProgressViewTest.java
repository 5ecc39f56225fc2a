package dev.agora.launcher.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProgressViewTest {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    @Test
    void withoutATerminalEachChangeIsOnePlainLine() {
        try (ProgressView view = new ProgressView(out, false)) {
            view.update("catalog-1", "waiting", false);
            view.update("catalog-1", "waiting", false); // no change, no line
            view.update("catalog-1", "starting", false);
            view.update("catalog-1", "ready in 4.2 s", true);
        }

        String text = bytes.toString(StandardCharsets.UTF_8);
        assertThat(text.lines()).hasSize(3);
        assertThat(text.lines().toList().getLast()).contains("catalog-1").endsWith("ready in 4.2 s");
        assertThat(text).doesNotContain("\033[");
    }

    @Test
    void onATerminalTheLinesAreRedrawnInPlaceOnePerStep() {
        try (ProgressView view = new ProgressView(out, true)) {
            view.update("postgres", "starting", false);
            view.update("catalog-1", "waiting", false);
            view.update("postgres", "ready", true);
        }

        String text = bytes.toString(StandardCharsets.UTF_8);
        // The last frame: cursor up over the previous one (two steps and the elapsed line), then each line anew.
        String lastFrame = text.substring(text.lastIndexOf("\033[3A"));
        assertThat(lastFrame).contains("postgres       ready\n").contains("catalog-1      waiting (");
        assertThat(lastFrame.split("\033\\[2K", -1)).hasSize(4);
    }
}
