package io.most.bench.repro;

import java.util.ArrayList;
import java.util.List;

/**
 * MOST paper Figure 8: CacheLib's small-object (8a, 1 KiB values) and large-object (8b, 16 KiB values)
 * look-aside workloads, Get:Set swept, on both hierarchies under the six policies, throughput normalised
 * to HeMem.
 */
final class MostFig8 extends CacheExperiment {
    static final List<String> SMALL = List.of("cache-small-1to1", "cache-small-3to1", "cache-small-9to1");
    static final List<String> LARGE = List.of("cache-large-1to1", "cache-large-3to1", "cache-large-9to1");

    @Override
    List<String> workloads() {
        List<String> all = new ArrayList<>(SMALL);
        all.addAll(LARGE);
        return all;
    }

    @Override
    public String name() {
        return "most-fig8";
    }

    @Override
    public String description() {
        return "MOST Fig. 8: cache look-aside, small (1 KiB) and large (16 KiB) objects, Get:Set swept, 6 policies x"
                + " optane-nvme, nvme-sata";
    }

    @Override
    public String figure() {
        return "MOST (Cerberus) Figure 8: look-aside cache workload (small- and large-object cache)";
    }

    @Override
    public String setup(boolean quick) {
        return "Zipfian get/set mixes at Get:Set 1:1, 3:1, 9:1 (the paper's sweep points are not in its text); paper:"
                + " 25M keys of 1 KB (8a) and 5M of 16 KB (8b), 200 MB DRAM, 256 threads. " + commonSetup(quick);
    }

    @Override
    public Findings findings(List<StepResult> results) {
        List<Comparison> c = new ArrayList<>();
        c.add(new Comparison("large objects, optane-nvme: most / best other, the largest over Get:Set", "up to 1.36x",
                Cells.number(maxMostOverBest(results, "optane-nvme", LARGE), 2) + "x"));
        c.add(new Comparison("large objects, nvme-sata: most / best other, the largest over Get:Set", "up to 1.54x",
                Cells.number(maxMostOverBest(results, "nvme-sata", LARGE), 2) + "x"));
        for (String h : HIERARCHIES) {
            double least = Double.NaN;
            for (String w : SMALL) {
                StepResult r = at(results, h, w);
                double v = r.run("most").number("throughput_ops")
                        / Math.max(r.run("colloid").number("throughput_ops"), r.run("colloid++").number("throughput_ops"));
                least = Double.isNaN(least) ? v : Math.min(least, v);
            }
            c.add(new Comparison("small objects, " + h + ": most / the better of colloid, colloid++ (the least over"
                    + " Get:Set)", "> 1 (Colloid's migration overhead)", Cells.number(least, 2) + "x"));
        }
        return normalisedThroughput(results, "hemem", c);
    }
}
