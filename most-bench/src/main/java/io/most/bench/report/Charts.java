package io.most.bench.report;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;

/**
 * Renders {@link Panel}s to one PNG with XChart: one panel alone, several in a grid of two columns.
 * Runs headless ({@code java.awt.headless=true} is set before AWT loads), so it works on servers and
 * in CI.
 */
public final class Charts {
    private static final int WIDTH = 720;
    private static final int HEIGHT = 440;

    static {
        // must precede the first AWT class: no display on a server or in CI
        System.setProperty("java.awt.headless", "true");
    }

    private Charts() {
    }

    /**
     * Writes {@code panels} to {@code file} as a PNG.
     *
     * @throws UncheckedIOException naming the file if it cannot be written
     */
    public static void write(Path file, List<Panel> panels) {
        if (panels.isEmpty()) {
            throw new IllegalArgumentException("no panels to draw");
        }
        int columns = panels.size() == 1 ? 1 : 2;
        int rows = (panels.size() + columns - 1) / columns;
        BufferedImage image = new BufferedImage(columns * WIDTH, rows * HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, image.getWidth(), image.getHeight());
            for (int i = 0; i < panels.size(); i++) {
                g.drawImage(BitmapEncoder.getBufferedImage(chart(panels.get(i))), i % columns * WIDTH,
                        i / columns * HEIGHT, null);
            }
        } finally {
            g.dispose();
        }
        try {
            if (!ImageIO.write(image, "png", file.toFile())) {
                throw new IllegalStateException("no PNG writer in this JDK");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write chart " + file + ": " + e.getMessage(), e);
        }
    }

    private static Chart<?, ?> chart(Panel panel) {
        return switch (panel) {
            case Panel.Category c -> category(c);
            case Panel.Xy xy -> xy(xy);
        };
    }

    private static CategoryChart category(Panel.Category p) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(p.title())
                .xAxisTitle(p.xTitle()).yAxisTitle(p.yTitle()).build();
        style(chart.getStyler());
        chart.getStyler().setDefaultSeriesRenderStyle(p.lines() ? CategorySeries.CategorySeriesRenderStyle.Line
                : CategorySeries.CategorySeriesRenderStyle.Bar);
        // lines: every series at the category's centre; bars: side by side within the category
        chart.getStyler().setOverlapped(p.lines());
        for (Map.Entry<String, List<Double>> e : p.series().entrySet()) {
            // a missing value (NaN) draws as a gap, not as a bogus zero
            List<Double> values = e.getValue().stream().map(v -> Double.isFinite(v) ? v : null).toList();
            CategorySeries series = chart.addSeries(e.getKey(), p.categories(), values);
            if (p.points().contains(e.getKey())) {
                series.setChartCategorySeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Scatter);
            }
        }
        return chart;
    }

    private static XYChart xy(Panel.Xy p) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(p.title()).xAxisTitle(p.xTitle())
                .yAxisTitle(p.yTitle()).build();
        style(chart.getStyler());
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        chart.getStyler().setMarkerSize(3);
        for (Map.Entry<String, List<double[]>> e : p.series().entrySet()) {
            List<double[]> points = e.getValue();
            if (points.isEmpty()) {
                continue;
            }
            double[] x = points.stream().mapToDouble(pt -> pt[0]).toArray();
            double[] y = points.stream().mapToDouble(pt -> pt[1]).toArray();
            chart.addSeries(e.getKey(), x, y);
        }
        return chart;
    }

    private static void style(Styler styler) {
        styler.setLegendPosition(Styler.LegendPosition.OutsideS);
        styler.setLegendLayout(Styler.LegendLayout.Horizontal);
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setAntiAlias(true);
    }
}
