package io.most.bench.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One plot of a chart: a {@link Category} panel (bars or lines over named x values such as policies
 * or a swept probability) or an {@link Xy} panel (lines over a numeric x such as time). Pure data, so
 * experiments build panels without touching the charting library.
 */
public sealed interface Panel {
    /** The panel's title. */
    String title();

    /**
     * Values per series at each category, in order; a series holds one value per category.
     *
     * @param lines  true for lines through the categories (a sweep), false for grouped bars
     * @param points series drawn as points instead (the min and max of repetitions beside their median)
     */
    record Category(String title, String xTitle, String yTitle, boolean lines, List<String> categories,
                    Map<String, List<Double>> series, java.util.Set<String> points) implements Panel {
        /** Every series drawn alike (bars or lines). */
        public Category(String title, String xTitle, String yTitle, boolean lines, List<String> categories,
                        Map<String, List<Double>> series) {
            this(title, xTitle, yTitle, lines, categories, series, java.util.Set.of());
        }

        public Category {
            categories = List.copyOf(categories);
            series = new LinkedHashMap<>(series);
            points = java.util.Set.copyOf(points);
            for (Map.Entry<String, List<Double>> e : series.entrySet()) {
                if (e.getValue().size() != categories.size()) {
                    throw new IllegalArgumentException("series '" + e.getKey() + "' has " + e.getValue().size()
                            + " values for " + categories.size() + " categories");
                }
            }
        }
    }

    /** Lines through {@code [x, y]} points, one per series. */
    record Xy(String title, String xTitle, String yTitle, Map<String, List<double[]>> series) implements Panel {
        public Xy {
            series = new LinkedHashMap<>(series);
        }
    }
}
