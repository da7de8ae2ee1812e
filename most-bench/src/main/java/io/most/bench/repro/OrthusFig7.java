package io.most.bench.repro;

import io.most.bench.driver.RunResult;
import io.most.bench.report.Panel;
import io.most.bench.report.SpreadSeries;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Orthus paper Figure 7: non-hierarchical caching (Orthus) against classic caching on an Optane+Flash
 * hierarchy, read-only, at load levels 0.5 to 2.0, throughput normalised to the cache device's maximum.
 * Classic caching here is {@code hemem}: hot data on the performance device, every access to it served
 * there, nothing offloaded (the behaviour of classic caching once the hot set is cached).
 */
final class OrthusFig7 implements Experiment {
    static final List<String> POLICIES = List.of("hemem", "orthus");

    @Override
    public String name() {
        return "orthus-fig7";
    }

    @Override
    public String description() {
        return "Orthus Fig. 7: orthus (NHC) vs hemem (classic) on optane-nvme, read-only, load 0.5-2.0";
    }

    @Override
    public String figure() {
        return "Orthus Figure 7: non-hierarchical vs classic caching across load levels (Optane+Flash)";
    }

    @Override
    public String setup(boolean quick) {
        return "`most-rand-read` on `optane-nvme` (paper: Open CAS on Optane SSD + flash, uniform 64 KiB reads over"
                + " a data set giving a 95% hit rate). Ours: 4 KiB reads, 90% of them to a hot 20% that fits the"
                + " performance device (50% of the data), i.e. a hit rate of ~95%. Classic caching is `hemem` (hot"
                + " segments live on the fast device, no load is sent elsewhere); the same runs as most-fig4's"
                + " rand-read points. Normalised throughput = served ops/s / the Optane model's max IOPS.";
    }

    @Override
    public List<Step> steps(boolean quick) {
        List<Step> steps = new ArrayList<>();
        for (double i : MostFig4.INTENSITIES) {
            steps.add(new Step(Map.of("workload", "most-rand-read", "intensity", i),
                    ExperimentArgs.tier(quick, "most-rand-read", i), POLICIES));
        }
        return steps;
    }

    @Override
    public Findings findings(List<StepResult> results) {
        List<List<String>> rows = new ArrayList<>();
        List<String> loads = new ArrayList<>();
        SpreadSeries normalised = new SpreadSeries();
        List<Comparison> c = new ArrayList<>();
        for (StepResult r : results) {
            RunResult classic = r.run("hemem");
            RunResult nhc = r.run("orthus");
            double max = classic.number("profile_max_iops");
            String load = "Load-" + r.param("intensity");
            loads.add(load);
            normalised.add("classic (hemem)", classic, "served_ops_s", 1 / max);
            normalised.add("NHC (orthus)", nhc, "served_ops_s", 1 / max);
            rows.add(List.of(load, Cells.number(classic.number("served_ops_s") / max, 2),
                    Cells.number(nhc.number("served_ops_s") / max, 2),
                    Cells.ratio(nhc.number("served_ops_s"), classic.number("served_ops_s")),
                    Cells.number(meanMillis(classic), 2), Cells.number(meanMillis(nhc), 2),
                    Cells.mib(nhc.number("mirrored_bytes"))));
        }
        StepResult low = results.getFirst();
        StepResult high = results.getLast();
        c.add(new Comparison("NHC / classic throughput at Load-0.5", "1.00 (NHC bypasses nothing)",
                Cells.ratio(low.run("orthus").number("served_ops_s"), low.run("hemem").number("served_ops_s"))));
        c.add(new Comparison("NHC / classic throughput at Load-2.0 (Optane+Flash, 95% hits)", "1.54x (+54%)",
                Cells.ratio(high.run("orthus").number("served_ops_s"), high.run("hemem").number("served_ops_s"))));
        c.add(new Comparison("NHC / classic mean latency at Load-2.0", "0.61x (-39%)",
                Cells.ratio(meanMillis(high.run("orthus")), meanMillis(high.run("hemem")))));
        List<Panel> panels = List.of(normalised.panel("Normalised throughput (x cache device max)", "load",
                "served / Optane max IOPS", false, loads));
        return new Findings(List.of("load", "classic (hemem) norm. tput", "NHC (orthus) norm. tput", "NHC / classic",
                "classic mean ms", "NHC mean ms", "NHC mirrored"), rows, c, panels);
    }

    /**
     * Mean latency in ms, or NaN when no operation intended in the measured window completed (an open
     * loop so far behind that its backlog outlasts the run reports no latency, not a latency of 0).
     */
    private static double meanMillis(RunResult run) {
        return run.number("measured_ops") > 0 ? run.number("mean_us") / 1e3 : Double.NaN;
    }
}
