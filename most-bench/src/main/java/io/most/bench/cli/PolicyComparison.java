package io.most.bench.cli;

import io.most.bench.driver.RunResult;
import io.most.bench.report.TextTable;
import java.util.List;
import java.util.Locale;

/**
 * The demo's second table: several runs of one workload, each as a ratio of its throughput to a
 * baseline run measured by the same demo with the same seed (each run in a JVM of its own unless
 * {@code --fork 0}; with {@code --repeat}, medians), so machine speed cancels out of the ratio (it does
 * not cancel out of the absolute ops/s).
 */
final class PolicyComparison {
    private PolicyComparison() {
    }

    /**
     * The table of {@code runs}; {@code baseline} is one of them.
     *
     * @param labels one short name per run, in the same order
     */
    static String of(List<String> labels, List<RunResult> runs, RunResult baseline) {
        double base = baseline.number("throughput_ops");
        TextTable table = new TextTable("run", "hierarchy", "page policy", "block tier", "ops/s", "x baseline",
                "mean us", "p99 us", "DRAM hit", "PM hit", "miss", "block rd/op",
                "moves/10s");
        for (int i = 0; i < runs.size(); i++) {
            RunResult r = runs.get(i);
            table.row(labels.get(i), r.text("hierarchy"), r.text("policy"), blockTier(r),
                    RunResult.cell(r.number("throughput_ops"), 0),
                    base > 0 ? String.format(Locale.ROOT, "%.2fx", r.number("throughput_ops") / base) : "-",
                    RunResult.cell(r.number("mean_us"), 1), RunResult.cell(r.number("p99_us"), 1),
                    percent(r.number("dram_hit_ratio")), percent(r.number("pm_hit_ratio")),
                    percent(r.number("miss_ratio")), RunResult.cell(r.number("ssd_reads_per_op"), 3),
                    movesPer10s(r));
        }
        return table.toString();
    }

    /** The placement of a tiered volume, or the single SSD's profile. */
    private static String blockTier(RunResult r) {
        if (r.fields().containsKey("placement")) {
            return r.text("placement") + " over " + r.text("performance_profile") + "+" + r.text("capacity_profile");
        }
        return r.text("ssd_profile");
    }

    /** Segment moves of a tiered volume per 10 s measured ({@link TierBreakdown#movesPer10s}); "-" for one SSD. */
    private static String movesPer10s(RunResult r) {
        if (!r.fields().containsKey("tier_migrations")) {
            return "-";
        }
        return RunResult.cell(TierBreakdown.movesPer10s(r.number("tier_migrations"), r.number("duration_s")), 1);
    }

    private static String percent(double ratio) {
        return Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.1f%%", ratio * 100);
    }
}
