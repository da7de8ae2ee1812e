package io.most.bench.repro;

import io.most.bench.driver.RunResult;
import io.most.bench.report.Panel;
import io.most.bench.report.SpreadSeries;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * MOST over three devices (issue 17; the paper leaves N tiers as future work): rand-read at 1.0x-2.0x
 * of the fastest device's model IOPS on {@code optane-nvme-sata} (Optane SSD, PCIe 3 NVMe, SATA flash:
 * a stack of two MOST volumes, {@code TieredVolume.open(List, TierConfig)}), MOST against HeMem-style
 * tiering over the same three devices (hottest on the Optane SSD, the next hottest on the NVMe drive).
 * The measure is served IOPS as a share of the three devices' summed model IOPS, the ceiling of any
 * placement; the targets are at least 1.3x HeMem at 2.0x and at least 90% of the sum.
 */
final class MostThreeTiers implements Experiment {
    static final String HIERARCHY = "optane-nvme-sata";
    static final List<Double> INTENSITIES = List.of(1.0, 1.25, 1.5, 1.75, 2.0);
    /** Quick runs test the plumbing: the ends of the range only. */
    private static final List<Double> QUICK_INTENSITIES = List.of(1.0, 2.0);
    static final List<String> POLICIES = List.of("most", "hemem");
    /**
     * Each level of the stack raises its ratio and mirrors on its own; the lower level sees load only
     * once the upper one offloads, so the whole stack needs longer than a pair to settle.
     */
    private static final String WARMUP = "15s";
    private static final String DURATION = "10s";

    @Override
    public String name() {
        return "most-three-tiers";
    }

    @Override
    public String description() {
        return "MOST over three devices: rand-read 1.0-2.0x on optane-nvme-sata, most vs hemem, share of summed IOPS";
    }

    @Override
    public String figure() {
        return "MOST over three devices (issue 17; paper section 5: future work)";
    }

    @Override
    public String setup(boolean quick) {
        return "`most-rand-read` open loop at 1.0x-2.0x the fastest device's (Optane SSD) model IOPS; hot set: 20% of"
                + " the blocks take 90% of the accesses. Hierarchy `" + HIERARCHY + "` emulated at x20 over memory:"
                + " Optane SSD and NVMe each hold 50% of the data set, SATA flash all of it; the volume is a stack of"
                + " two MOST volumes (Optane over the volume of NVMe over SATA). Share = `served_ops_s` /"
                + " `summed_max_iops` (the three devices' model IOPS). "
                + (quick ? "Quick: 16 MiB, 32 threads, 0.2 s + 0.3 s per point."
                        : "128 MiB data set, 96 threads, " + WARMUP + " warm-up + " + DURATION + " measured per point.");
    }

    @Override
    public List<Step> steps(boolean quick) {
        List<Step> steps = new ArrayList<>();
        for (double i : quick ? QUICK_INTENSITIES : INTENSITIES) {
            steps.add(new Step(Map.of("intensity", i), ExperimentArgs.tier(quick, HIERARCHY, "most-rand-read", i, WARMUP,
                    DURATION), POLICIES));
        }
        return steps;
    }

    @Override
    public Findings findings(List<StepResult> results) {
        List<List<String>> rows = new ArrayList<>();
        List<String> loads = new ArrayList<>();
        SpreadSeries series = new SpreadSeries();
        for (StepResult r : results) {
            loads.add(r.param("intensity") + "x");
            RunResult most = r.run("most");
            RunResult hemem = r.run("hemem");
            series.add("most", most, "served_ops_s");
            series.add("hemem", hemem, "served_ops_s");
            rows.add(List.of(r.param("intensity") + "x", Cells.kilo(most.number("served_ops_s")),
                    Cells.kilo(hemem.number("served_ops_s")), Cells.kilo(most.number("summed_max_iops")),
                    Cells.percent(most.number("served_share_of_summed")),
                    Cells.percent(hemem.number("served_share_of_summed")),
                    Cells.ratio(most.number("served_ops_s"), hemem.number("served_ops_s")),
                    most.text("level_offload_ratios"),
                    Cells.mib(most.number("mirrored_bytes")) + " / " + Cells.mib(most.number("migrated_bytes"))));
        }
        StepResult top = results.stream().filter(r -> ((Double) r.param("intensity")) == 2.0).findFirst().orElseThrow();
        List<Comparison> c = List.of(
                new Comparison("rand-read 2.0x: most / hemem over three devices", ">= 1.3x (issue 17 target)",
                        Cells.ratio(top.run("most").number("served_ops_s"), top.run("hemem").number("served_ops_s"))),
                new Comparison("rand-read 2.0x: most's served share of the three devices' summed IOPS",
                        ">= 90% (issue 17 target)", Cells.percent(top.run("most").number("served_share_of_summed"))));
        List<Panel> panels = List.of(series.panel("rand-read over Optane / NVMe / SATA",
                "load intensity (x the fastest device's max)", "served ops/s", true, loads));
        return new Findings(List.of("load", "most ops/s", "hemem ops/s", "summed max IOPS", "most share",
                "hemem share", "most / hemem", "most offload ratio per level", "most mirrored / migrated (top level)"),
                rows, c, panels);
    }
}
