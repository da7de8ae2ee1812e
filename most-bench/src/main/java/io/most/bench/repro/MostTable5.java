package io.most.bench.repro;

import io.most.bench.report.Panel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * MOST paper Table 5: average and P99 GET latency of the four production mixes, each policy's beside
 * the paper's. The runs are Figure 9's ({@link MostFig9}): {@code reproduce most-fig9,most-table5}
 * measures them once.
 */
final class MostTable5 extends CacheExperiment {
    /**
     * The paper's Table 5 in ms: per hierarchy and mix, the average then the P99 of striping, orthus,
     * hemem, colloid, colloid++, Cerberus (the order of {@link #POLICIES}).
     */
    static final Map<String, double[][]> PAPER = Map.of(
            "optane-nvme cache-flat-kvcache", new double[][] {{0.81, 0.67, 0.71, 0.56, 0.52, 0.50},
                    {15.76, 18.18, 19.24, 9.59, 9.00, 7.33}},
            "optane-nvme cache-graph-leader", new double[][] {{0.73, 0.61, 0.59, 0.45, 0.44, 0.43},
                    {7.00, 14.28, 12.83, 4.12, 4.12, 3.65}},
            "optane-nvme cache-kvcache-reg", new double[][] {{0.76, 0.86, 0.59, 0.67, 0.88, 0.47},
                    {9.53, 10.69, 6.50, 7.78, 8.85, 5.43}},
            "optane-nvme cache-kvcache-wc", new double[][] {{9.67, 12.38, 8.26, 7.15, 8.32, 3.16},
                    {67.68, 272.00, 73.63, 72.93, 86.32, 27.76}},
            "nvme-sata cache-flat-kvcache", new double[][] {{2.30, 1.76, 1.58, 1.35, 1.21, 1.15},
                    {46.43, 27.96, 22.98, 25.98, 21.31, 20.40}},
            "nvme-sata cache-graph-leader", new double[][] {{1.90, 1.41, 1.54, 1.48, 1.17, 1.10},
                    {23.40, 16.84, 11.59, 14.15, 9.34, 8.54}},
            "nvme-sata cache-kvcache-reg", new double[][] {{1.95, 2.00, 1.49, 1.40, 1.62, 1.23},
                    {18.18, 18.42, 12.35, 16.50, 18.50, 12.31}},
            "nvme-sata cache-kvcache-wc", new double[][] {{27.55, 32.15, 26.69, 19.98, 16.68, 16.09},
                    {239.86, 364.20, 160.10, 158.07, 170.29, 101.85}});

    private final MostFig9 runs = new MostFig9();

    @Override
    List<String> workloads() {
        return MostFig9.MIXES;
    }

    @Override
    int threads(String workload) {
        return runs.threads(workload);
    }

    @Override
    public String name() {
        return "most-table5";
    }

    @Override
    public String description() {
        return "MOST Table 5: average and P99 GET latency of the production mixes A-D (Fig. 9's runs), ours beside"
                + " the paper's";
    }

    @Override
    public String figure() {
        return "MOST (Cerberus) Table 5: average and P99 GET latency of production workloads";
    }

    @Override
    public String setup(boolean quick) {
        return "Figure 9's runs; GET latency is the cache's get call (`get_mean_us`, `get_p99_us`), in ms here as in"
                + " the paper, ours (paper's) per cell. Our devices are emulated x20 slower than the paper's and the"
                + " caches are smaller: compare the order of the policies, not the values. " + runs.setup(quick);
    }

    @Override
    public Findings findings(List<StepResult> results) {
        List<String> headers = new ArrayList<>(List.of("hierarchy", "workload", "GET latency"));
        POLICIES.forEach(p -> headers.add(p + " ms (paper)"));
        List<List<String>> rows = new ArrayList<>();
        List<Panel> panels = new ArrayList<>();
        double[][] reduction = new double[2][2]; // [hierarchy][avg, p99]: sums of most's reduction against the best other
        for (int hi = 0; hi < HIERARCHIES.size(); hi++) {
            String h = HIERARCHIES.get(hi);
            Map<String, List<Double>> series = new LinkedHashMap<>();
            for (String w : MostFig9.MIXES) {
                StepResult r = at(results, h, w);
                double[][] paper = PAPER.get(h + " " + w);
                String[] fields = {"get_mean_us", "get_p99_us"};
                for (int m = 0; m < 2; m++) {
                    List<String> row = new ArrayList<>(List.of(h, w, m == 0 ? "average" : "P99"));
                    for (int p = 0; p < POLICIES.size(); p++) {
                        double ours = r.run(POLICIES.get(p)).number(fields[m]) / 1e3;
                        row.add(Cells.number(ours, 2) + " (" + Cells.number(paper[m][p], 2) + ")");
                        if (m == 1) {
                            series.computeIfAbsent(POLICIES.get(p), k -> new ArrayList<>()).add(ours);
                        }
                    }
                    rows.add(row);
                    reduction[hi][m] += 1 - r.run("most").number(fields[m]) / bestOther(r, fields[m], true);
                }
            }
            panels.add(new Panel.Category(h + ": P99 GET latency", "workload", "ms", false, MostFig9.MIXES, series));
        }
        int n = MostFig9.MIXES.size();
        List<Comparison> c = new ArrayList<>();
        c.add(new Comparison("optane-nvme: most's average / P99 GET latency below the best other, mean over A-D",
                "20% / 26%", Cells.percent(reduction[0][0] / n) + " / " + Cells.percent(reduction[0][1] / n)));
        c.add(new Comparison("nvme-sata: most's average / P99 GET latency below the best other, mean over A-D",
                "6.6% / 12%", Cells.percent(reduction[1][0] / n) + " / " + Cells.percent(reduction[1][1] / n)));
        c.add(new Comparison("both: average / P99 below the best other", "14% / 19%",
                Cells.percent((reduction[0][0] + reduction[1][0]) / (2 * n)) + " / "
                        + Cells.percent((reduction[0][1] + reduction[1][1]) / (2 * n))));
        return new Findings(headers, rows, c, panels);
    }
}
