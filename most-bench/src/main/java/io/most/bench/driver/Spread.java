package io.most.bench.driver;

import java.util.Arrays;

/**
 * The median and the extremes of one measure over the repetitions of a run. The median, not the
 * mean: one repetition disturbed by a neighbour (a build, a GC storm) moves a mean, not a median.
 * Missing values (NaN) are left out; with none left every statistic is NaN.
 *
 * @param median the middle value; for an even count the mean of the two middle ones
 * @param min    the smallest value
 * @param max    the largest value
 * @param count  how many values were not NaN
 */
public record Spread(double median, double min, double max, int count) {
    /** The spread of {@code values}, NaN ignored. */
    public static Spread of(double... values) {
        double[] known = Arrays.stream(values).filter(v -> !Double.isNaN(v)).sorted().toArray();
        if (known.length == 0) {
            return new Spread(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        int mid = known.length / 2;
        double median = known.length % 2 == 1 ? known[mid] : (known[mid - 1] + known[mid]) / 2;
        return new Spread(median, known[0], known[known.length - 1], known.length);
    }

    /**
     * The spread of {@code measure} in a report row: from its {@code spread} object when the row
     * aggregates repetitions, else the single value as median, min and max.
     */
    public static Spread ofRow(RunResult row, String measure) {
        if (row.fields().get("spread") instanceof java.util.Map<?, ?> spread
                && spread.get(measure) instanceof java.util.Map<?, ?> m
                && m.get("median") instanceof Number median && m.get("min") instanceof Number min
                && m.get("max") instanceof Number max) {
            return new Spread(median.doubleValue(), min.doubleValue(), max.doubleValue(),
                    row.number("repeat") > 0 ? (int) row.number("repeat") : 1);
        }
        double v = row.number(measure);
        return new Spread(v, v, v, Double.isNaN(v) ? 0 : 1);
    }

    /** {@code max / min - 1}: how far apart the extremes are, as a share (0.1 = 10%). */
    public double relativeRange() {
        return max / min - 1;
    }
}
