package io.most.bench.repro;

import io.most.bench.report.Panel;
import io.most.bench.report.SpreadSeries;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * MOST paper Figure 4: steady-state throughput of four static workloads at load intensities 0.5x to
 * 2.0x, for MOST and the six baselines, on the Optane/NVMe hierarchy.
 */
final class MostFig4 implements Experiment {
    static final List<String> WORKLOADS = List.of("most-rand-read", "most-rand-write", "most-seq-write",
            "most-read-latest");
    static final List<Double> INTENSITIES = List.of(0.5, 1.0, 1.5, 2.0);
    static final List<String> POLICIES = List.of("most", "hemem", "batman", "colloid", "colloid+", "striping",
            "orthus");

    @Override
    public String name() {
        return "most-fig4";
    }

    @Override
    public String description() {
        return "MOST Fig. 4: static workloads x intensity 0.5-2.0 x 7 policies on optane-nvme";
    }

    @Override
    public String figure() {
        return "MOST (Cerberus) Figure 4: static workloads";
    }

    @Override
    public String setup(boolean quick) {
        return "Open loop at 0.5x-2.0x the performance device's model IOPS for each op mix; hot set: 20% of"
                + " the blocks take 90% of the accesses (rand-read/-write; read-latest: the newest 20%). Hierarchy"
                + " `optane-nvme` emulated at x20 over memory, performance device = 50% of the data set. "
                + (quick ? "Quick: 16 MiB, 32 threads, 0.2 s + 0.3 s per point."
                        : "128 MiB data set (paper: 750 GB), 96 threads, " + ExperimentArgs.TIER_WARMUP
                        + " warm-up + " + ExperimentArgs.TIER_DURATION + " measured per point (paper: steady"
                        + " state). Throughput is `served_ops_s`, what the volume completed per measured second."
                        + " One run per point: differences within ~5% are within a run's noise.");
    }

    @Override
    public List<Step> steps(boolean quick) {
        List<Step> steps = new ArrayList<>();
        for (String w : WORKLOADS) {
            for (double i : INTENSITIES) {
                steps.add(new Step(Map.of("workload", w, "intensity", i), ExperimentArgs.tier(quick, w, i), POLICIES));
            }
        }
        return steps;
    }

    @Override
    public Findings findings(List<StepResult> results) {
        List<String> headers = new ArrayList<>(List.of("workload", "load"));
        POLICIES.forEach(p -> headers.add(p + " ops/s"));
        headers.addAll(List.of("most / hemem", "most / best other", "migrated MiB most / colloid / colloid+"));
        List<List<String>> rows = new ArrayList<>();
        List<Panel> panels = new ArrayList<>();
        for (String w : WORKLOADS) {
            SpreadSeries series = new SpreadSeries();
            for (StepResult r : results) {
                if (!w.equals(r.param("workload"))) {
                    continue;
                }
                List<String> row = new ArrayList<>(List.of(w, r.param("intensity") + "x"));
                double best = 0;
                for (String p : POLICIES) {
                    double served = r.run(p).number("served_ops_s");
                    series.add(p, r.run(p), "served_ops_s");
                    row.add(Cells.kilo(served));
                    if (!p.equals("most")) {
                        best = Math.max(best, served);
                    }
                }
                double most = r.run("most").number("served_ops_s");
                row.add(Cells.ratio(most, r.run("hemem").number("served_ops_s")));
                row.add(Cells.ratio(most, best));
                row.add(Cells.number(r.run("most").number("migrated_bytes") / (1 << 20), 0) + " / "
                        + Cells.number(r.run("colloid").number("migrated_bytes") / (1 << 20), 0) + " / "
                        + Cells.number(r.run("colloid+").number("migrated_bytes") / (1 << 20), 0));
                rows.add(row);
            }
            panels.add(series.panel(w, "load intensity (x performance device max)", "served ops/s", true,
                    INTENSITIES.stream().map(i -> i + "x").toList()));
        }
        return new Findings(headers, rows, comparisons(results), panels);
    }

    private static List<Comparison> comparisons(List<StepResult> results) {
        List<Comparison> c = new ArrayList<>();
        for (String w : WORKLOADS) {
            StepResult top = at(results, w, 2.0);
            double most = top.run("most").number("served_ops_s");
            String bestName = "";
            double best = 0;
            for (String p : POLICIES) {
                double v = top.run(p).number("served_ops_s");
                if (!p.equals("most") && v > best) {
                    best = v;
                    bestName = p;
                }
            }
            c.add(new Comparison(w + " at 2.0x: most vs the best other policy",
                    "most as good as or better than all (Fig. 4)", "most / " + bestName + " = " + Cells.ratio(most, best)));
        }
        StepResult read1 = at(results, "most-rand-read", 1.0);
        StepResult read2 = at(results, "most-rand-read", 2.0);
        c.add(new Comparison("rand-read: hemem 2.0x / 1.0x (classic tiering stops scaling at 1.0x)", "~1.0x (flat)",
                Cells.ratio(read2.run("hemem").number("served_ops_s"), read1.run("hemem").number("served_ops_s"))));
        c.add(new Comparison("rand-read 2.0x: migrated bytes colloid / most", "134 GB / 50 GB = 2.68x",
                Cells.mib(read2.run("colloid").number("migrated_bytes")) + " / "
                        + Cells.mib(read2.run("most").number("migrated_bytes"))));
        c.add(new Comparison("rand-read 2.0x: mirrored data orthus / most", "690 GB / 50 GB",
                Cells.mib(read2.run("orthus").number("mirrored_bytes")) + " / "
                        + Cells.mib(read2.run("most").number("mirrored_bytes"))));
        StepResult write2 = at(results, "most-rand-write", 2.0);
        c.add(new Comparison("rand-write 2.0x: migrated colloid / colloid+ / most", "0 / 93 / 65 GB",
                Cells.mib(write2.run("colloid").number("migrated_bytes")) + " / "
                        + Cells.mib(write2.run("colloid+").number("migrated_bytes")) + " / "
                        + Cells.mib(write2.run("most").number("migrated_bytes"))));
        StepResult read05 = at(results, "most-rand-read", 0.5);
        c.add(new Comparison("rand-read 0.5x: batman mean latency / most (static ratio sends load to the slow"
                + " device at low load)", "batman below the others at low load",
                Cells.ratio(read05.run("batman").number("mean_us"), read05.run("most").number("mean_us"))));
        return c;
    }

    private static StepResult at(List<StepResult> results, String workload, double intensity) {
        return results.stream().filter(r -> workload.equals(r.param("workload"))
                && ((Double) r.param("intensity")) == intensity).findFirst().orElseThrow();
    }
}
