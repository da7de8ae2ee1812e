package io.most.bench.repro;

import java.util.Locale;

/** Formats numbers for the reproduction tables: thousands, ratios, percentages; "-" for a missing value. */
final class Cells {
    private Cells() {
    }

    /** {@code 38123} as "38.1k". */
    static String kilo(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.1fk", v / 1e3) : "-";
    }

    /** {@code a / b} as "1.25x". */
    static String ratio(double a, double b) {
        return Double.isFinite(a / b) ? String.format(Locale.ROOT, "%.2fx", a / b) : "-";
    }

    /** {@code 0.123} as "12.3%". */
    static String percent(double share) {
        return Double.isFinite(share) ? String.format(Locale.ROOT, "%.1f%%", share * 100) : "-";
    }

    /** Bytes as MiB with one decimal. */
    static String mib(double bytes) {
        return Double.isFinite(bytes) ? String.format(Locale.ROOT, "%.1f MiB", bytes / (1 << 20)) : "-";
    }

    /** {@code v} with {@code decimals} places. */
    static String number(double v, int decimals) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%." + decimals + "f", v) : "-";
    }
}
