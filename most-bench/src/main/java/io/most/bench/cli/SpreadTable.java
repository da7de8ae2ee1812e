package io.most.bench.cli;

import io.most.bench.driver.RunResult;
import io.most.bench.driver.Spread;
import io.most.bench.report.TextTable;
import java.util.List;
import java.util.Locale;

/**
 * The second table of a repeated run: per engine or policy, the median and the min-max range over the
 * repetitions of throughput and latency, and how far apart the extremes of the throughput are.
 */
final class SpreadTable {
    private SpreadTable() {
    }

    /** The table of {@code rows} (aggregated), the first column headed {@code item}. */
    static String of(List<RunResult> rows, String item) {
        TextTable table = new TextTable(item, "runs", "ops/s median", "ops/s min-max", "spread", "p50 us min-max",
                "p99 us min-max", "x first (medians)");
        for (RunResult r : rows) {
            boolean served = !Double.isNaN(r.number("served_ops_s"));
            Spread ops = Spread.ofRow(r, served ? "served_ops_s" : "throughput_ops");
            table.row(r.text(item.equals("engine") ? "engine" : "policy"), r.text("repeat"),
                    RunResult.cell(ops.median(), 0), range(ops, 0),
                    Double.isNaN(ops.relativeRange()) ? "-" : String.format(Locale.ROOT, "%.0f%%",
                            ops.relativeRange() * 100),
                    range(Spread.ofRow(r, "p50_us"), 1), range(Spread.ofRow(r, "p99_us"), 1),
                    RunResult.cell(r.number("ratio_to_first"), 2));
        }
        return "\nspread over the repetitions (ops/s = served ops/s where reported):\n" + table;
    }

    private static String range(Spread s, int decimals) {
        return s.count() == 0 ? "-" : RunResult.cell(s.min(), decimals) + " - " + RunResult.cell(s.max(), decimals);
    }
}
