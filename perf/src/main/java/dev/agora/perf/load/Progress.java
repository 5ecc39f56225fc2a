package dev.agora.perf.load;

import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/** A console progress bar for long loads; silent for short ones and when no label is given. */
public final class Progress implements AutoCloseable {

    /** Below this many steps a load is over before a bar would say anything useful. */
    private static final long MINIMUM_STEPS = 2_000;

    private static final Progress SILENT = new Progress(null);

    private final ProgressBar bar;

    private Progress(ProgressBar bar) {
        this.bar = bar;
    }

    public static Progress of(String label, long steps) {
        if (label == null || steps < MINIMUM_STEPS || Boolean.getBoolean("agora.perf.noProgress")) return SILENT;
        return new Progress(new ProgressBarBuilder()
                .setTaskName(label)
                .setInitialMax(steps)
                .setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(500)
                .build());
    }

    public void step() {
        if (bar != null) bar.step();
    }

    @Override
    public void close() {
        if (bar != null) bar.close();
    }
}
