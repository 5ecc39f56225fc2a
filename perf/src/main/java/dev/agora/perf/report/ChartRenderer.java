package dev.agora.perf.report;

import java.io.IOException;
import java.nio.file.Path;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** Draws a {@link Chart} to a PNG with XChart, headless. */
public final class ChartRenderer {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 500;

    static {
        System.setProperty("java.awt.headless", "true");
    }

    private ChartRenderer() {}

    /** Writes {@code directory/<chart.fileName()>} and returns its path. */
    public static Path renderPng(Chart chart, Path directory) throws IOException {
        Path file = directory.resolve(chart.fileName());
        String withoutExtension = file.toString().replaceFirst("\\.png$", "");
        switch (chart.kind()) {
            case BAR -> BitmapEncoder.saveBitmap(bars(chart), withoutExtension, BitmapEncoder.BitmapFormat.PNG);
            case LINE, SCATTER, TIMELINE ->
                BitmapEncoder.saveBitmap(xy(chart), withoutExtension, BitmapEncoder.BitmapFormat.PNG);
        }
        return file;
    }

    private static XYChart xy(Chart chart) {
        XYChart xy = new XYChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(chart.title())
                .xAxisTitle(chart.xAxis())
                .yAxisTitle(chart.yAxis())
                .build();
        xy.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        xy.getStyler().setYAxisLogarithmic(chart.logY());
        xy.getStyler()
                .setDefaultSeriesRenderStyle(
                        switch (chart.kind()) {
                            case SCATTER -> XYSeries.XYSeriesRenderStyle.Scatter;
                            case TIMELINE -> XYSeries.XYSeriesRenderStyle.Step;
                            default -> XYSeries.XYSeriesRenderStyle.Line;
                        });
        if (chart.kind() == Chart.Kind.SCATTER) xy.getStyler().setMarkerSize(3);
        for (Chart.Series series : chart.series()) {
            if (series.x().isEmpty()) continue;
            XYSeries drawn = xy.addSeries(series.name(), series.x(), positive(series, chart.logY()));
            if (chart.kind() == Chart.Kind.LINE) drawn.setMarker(SeriesMarkers.CIRCLE);
            if (chart.kind() == Chart.Kind.TIMELINE) drawn.setMarker(SeriesMarkers.NONE);
        }
        return xy;
    }

    private static CategoryChart bars(Chart chart) {
        CategoryChart bars = new CategoryChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(chart.title())
                .xAxisTitle(chart.xAxis())
                .yAxisTitle(chart.yAxis())
                .build();
        bars.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        // Bars grow from zero, which a logarithmic axis cannot show: bar charts stay linear.
        for (Chart.Series series : chart.series()) {
            if (series.categories().isEmpty()) continue;
            bars.addSeries(series.name(), series.categories(), series.y());
        }
        return bars;
    }

    /** A logarithmic axis cannot show zero; lift zeros to a tiny value rather than fail the drawing. */
    private static java.util.List<Double> positive(Chart.Series series, boolean log) {
        if (!log) return series.y();
        return series.y().stream().map(y -> y > 0 ? y : 1e-3).toList();
    }
}
