package io.most.bench;

import io.most.Sizes;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses and prints the durations and sizes of the command line ({@code 500ms}, {@code 20s}, {@code 256m}). */
public final class Units {
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

    private Units() {
    }

    /**
     * Parses a duration with a unit: {@code ms}, {@code s}, {@code m} or {@code h}, e.g. {@code 500ms},
     * {@code 1.5s}, {@code 2m}.
     *
     * @param option    the option being parsed, named in the error
     * @param allowZero whether {@code 0s} is valid (a warm-up may be skipped, a run may not)
     * @return nanoseconds
     * @throws UsageException naming the option and the accepted forms
     */
    public static long parseDurationNanos(String option, String text, boolean allowZero) {
        Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
        String valid = (allowZero ? "zero or more" : "a positive duration") + " with a unit ms, s, m or h"
                + " (e.g. 500ms, 20s, 2m)";
        if (!m.matches()) {
            throw new UsageException(option + " '" + text + "' is not a duration: expected " + valid);
        }
        double value = Double.parseDouble(m.group(1));
        long unitNanos = switch (m.group(2)) {
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            default -> 3_600_000_000_000L;
        };
        double nanos = value * unitNanos;
        if (nanos > 365 * 24 * 3_600e9) {
            throw new UsageException(option + " '" + text + "' is too long: at most a year");
        }
        long result = Math.round(nanos);
        if (result < 0 || (result == 0 && !allowZero)) {
            throw new UsageException(option + " '" + text + "' must be " + valid);
        }
        return result;
    }

    /**
     * Parses a byte count with an optional binary suffix {@code k}, {@code m}, {@code g} or {@code t}
     * (also {@code kb}/{@code kib}, any case), e.g. {@code 4096}, {@code 64k}, {@code 256m}, {@code 1g}.
     *
     * @throws UsageException naming the option unless the value is a positive size
     */
    public static long parseSize(String option, String text) {
        long size;
        try {
            size = Sizes.parse(text);
        } catch (Sizes.InvalidSizeException e) {
            throw new UsageException(option + " " + e.getMessage());
        }
        if (size == 0) {
            throw new UsageException(option + " '" + text + "' must be positive");
        }
        return size;
    }

    /** A byte count in the largest binary unit that keeps it readable: {@code 256 MiB}, {@code 1.5 GiB}. */
    public static String formatBytes(long bytes) {
        return Sizes.format(bytes);
    }

    /** {@code nanos} for a message: three significant digits and a unit, e.g. "2.50 s". */
    public static String formatSeconds(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.3g s", nanos / 1e9);
    }

    public static double seconds(long nanos) {
        return round(nanos / 1e9, 3);
    }

    /**
     * {@code value} rounded to {@code decimals} places (reports carry no false precision). A missing value
     * (NaN) stays missing: {@link Math#round(double)} would turn it into 0, a measurement nobody made.
     */
    public static double round(double value, int decimals) {
        if (!Double.isFinite(value)) {
            return value;
        }
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }

    /**
     * A whole number within {@code [min, max]} for {@code option}; underscores are allowed as digit
     * separators (250_000).
     *
     * @throws UsageException naming the option and the range
     */
    public static long parseWhole(String option, String text, long min, long max) {
        try {
            long value = Long.parseLong(text.trim().replace("_", ""));
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(option + " '" + text + "' must be a whole number from " + min + " to " + max);
    }

    /**
     * The scale a scaled device or PM profile runs at, from the {@code "(times xF)"} its scaling added
     * to {@code source}: {@code "x10"}, or {@code "x1"} for a profile at the device's own speed.
     */
    public static String scaleLabel(String source) {
        int at = source.lastIndexOf("(times x");
        return at < 0 ? "x1" : "x" + source.substring(at + 8, source.length() - 1).replaceAll("\\.0$", "");
    }
}
