package io.most.bench.report;

import io.most.bench.driver.RunResult;
import io.most.bench.driver.Spread;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The series of a category chart whose values come from (possibly repeated) runs: each value is the
 * run's median, and when any run was repeated every series also gets its min and max drawn as points,
 * so a chart never shows a difference smaller than the spread behind it as if it were real.
 */
public final class SpreadSeries {
    private final Map<String, List<Double>> medians = new LinkedHashMap<>();
    private final Map<String, List<Double>> mins = new LinkedHashMap<>();
    private final Map<String, List<Double>> maxes = new LinkedHashMap<>();
    private boolean repeated;

    /** Appends {@code run}'s {@code field} to series {@code name}. */
    public SpreadSeries add(String name, RunResult run, String field) {
        return add(name, run, field, 1);
    }

    /** Appends {@code run}'s {@code field} times {@code scale} (a normalisation) to series {@code name}. */
    public SpreadSeries add(String name, RunResult run, String field, double scale) {
        Spread spread = Spread.ofRow(run, field);
        repeated |= spread.count() > 1;
        medians.computeIfAbsent(name, k -> new ArrayList<>()).add(run.number(field) * scale);
        mins.computeIfAbsent(name, k -> new ArrayList<>()).add(spread.min() * scale);
        maxes.computeIfAbsent(name, k -> new ArrayList<>()).add(spread.max() * scale);
        return this;
    }

    /** Whether any value came from a repeated run. */
    public boolean repeated() {
        return repeated;
    }

    /**
     * The panel over {@code categories} (one value per category in every series); the title says how
     * to read the points when there are any.
     */
    public Panel.Category panel(String title, String xTitle, String yTitle, boolean lines, List<String> categories) {
        Map<String, List<Double>> series = new LinkedHashMap<>(medians);
        Set<String> points = new HashSet<>();
        if (repeated) {
            for (String name : medians.keySet()) {
                series.put(name + " min", mins.get(name));
                series.put(name + " max", maxes.get(name));
                points.add(name + " min");
                points.add(name + " max");
            }
        }
        String shownTitle = repeated ? title + " (median; points: min and max of the repetitions)" : title;
        return new Panel.Category(shownTitle, xTitle, yTitle, lines, categories, series, points);
    }
}
