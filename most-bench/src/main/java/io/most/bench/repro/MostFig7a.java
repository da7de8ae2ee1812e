package io.most.bench.repro;

import io.most.bench.driver.RunResult;
import io.most.bench.report.Panel;
import io.most.bench.report.SpreadSeries;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * MOST paper Figure 7a (and 7b's MOST line): the size of MOST's mirrored class as the working set grows
 * towards the volume's total capacity, under a high-load 50% write workload.
 */
final class MostFig7a implements Experiment {
    static final List<Double> WORKING_SETS = List.of(0.25, 0.5, 0.75, 0.95);
    private static final double LOAD = 2.0;
    /**
     * MOST raises its offload ratio by 0.02 per 200 ms interval and mirrors only once the ratio is at its
     * maximum (Algorithm 1), so the first mirror appears after about 10 s of overload: the warm-up must
     * be longer than that for a mirrored class to exist.
     */
    private static final String WARMUP = "20s";

    @Override
    public String name() {
        return "most-fig7a";
    }

    @Override
    public String description() {
        return "MOST Fig. 7a: mirrored class size vs working set 25-95% of capacity (most, rand-rw, 2.0x)";
    }

    @Override
    public String figure() {
        return "MOST (Cerberus) Figure 7a: working set vs mirrored class size";
    }

    @Override
    public String setup(boolean quick) {
        return "`most-rand-rw` (50% writes, 20% hot set takes 90%) at " + LOAD + "x (paper: 128 threads, high"
                + " load) with `--working-set` 25/50/75/95% of the volume's capacity (performance + capacity device;"
                + " the devices are sized from --size, the data set from the share). "
                + (quick ? "Quick: 16 MiB devices, 32 threads, 0.5 s." : "Devices for --size 128m (volume capacity"
                + " ~200 MiB), 96 threads, " + WARMUP + " warm-up + " + ExperimentArgs.TIER_DURATION + " measured.");
    }

    @Override
    public List<Step> steps(boolean quick) {
        List<Step> steps = new ArrayList<>();
        for (double ws : WORKING_SETS) {
            List<String> args = new ArrayList<>(ExperimentArgs.tier(quick, "most-rand-rw", LOAD, WARMUP,
                    ExperimentArgs.TIER_DURATION));
            args.addAll(List.of("--working-set", String.valueOf(ws)));
            steps.add(new Step(Map.of("working_set", ws), args, List.of("most")));
        }
        return steps;
    }

    @Override
    public Findings findings(List<StepResult> results) {
        List<List<String>> rows = new ArrayList<>();
        List<String> categories = new ArrayList<>();
        Map<String, List<Double>> mirrored = new LinkedHashMap<>();
        mirrored.put("mirrored / working set", new ArrayList<>());
        mirrored.put("mirrored / total capacity", new ArrayList<>());
        SpreadSeries throughput = new SpreadSeries();
        double lastShare = Double.NaN;
        for (StepResult r : results) {
            RunResult run = r.run("most");
            double ws = run.number("size_bytes");
            double capacity = run.number("performance_bytes") + run.number("capacity_bytes");
            double m = run.number("mirrored_bytes");
            categories.add(Math.round((Double) r.param("working_set") * 100) + "%");
            mirrored.get("mirrored / working set").add(100 * m / ws);
            mirrored.get("mirrored / total capacity").add(100 * m / capacity);
            throughput.add("most", run, "served_ops_s");
            lastShare = m / ws;
            rows.add(List.of(categories.getLast(), Cells.mib(ws), Cells.mib(m), Cells.percent(m / ws),
                    Cells.percent(m / capacity), Cells.kilo(run.number("served_ops_s")),
                    Cells.number(run.number("offload_ratio"), 2), Cells.mib(run.number("migrated_bytes"))));
        }
        List<Comparison> c = List.of(
                new Comparison("mirrored share of the data at a 95% working set", "1.8%", Cells.percent(lastShare)),
                new Comparison("mirrored class stays small as the working set grows", "small at every size",
                        "see the table"));
        List<Panel> panels = List.of(
                new Panel.Category("Mirrored class size", "working set (share of total capacity)", "% mirrored",
                        true, categories, mirrored),
                throughput.panel("Throughput (Fig. 7b, MOST)", "working set (share of total capacity)",
                        "served ops/s", false, categories));
        return new Findings(List.of("working set", "working set bytes", "mirrored", "mirrored / working set",
                "mirrored / capacity", "served ops/s", "offload ratio", "migrated"), rows, c, panels);
    }
}
