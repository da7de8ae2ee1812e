package io.most.bench.repro;

import java.util.ArrayList;
import java.util.List;

/**
 * MOST paper Figure 11: YCSB A, B, C and F as look-aside cache workloads (a miss fetches from the
 * backing store for 1.5 ms, scaled as the devices, and sets), throughput normalised to striping
 * (CacheLib's default), as the paper's figure.
 */
final class MostFig11 extends CacheExperiment {
    static final List<String> YCSB = List.of("cache-ycsb-a", "cache-ycsb-b", "cache-ycsb-c", "cache-ycsb-f");

    @Override
    List<String> workloads() {
        return YCSB;
    }

    @Override
    public String name() {
        return "most-fig11";
    }

    @Override
    public String description() {
        return "MOST Fig. 11: YCSB A, B, C, F look-aside with a 1.5 ms backing-store fetch, 6 policies x optane-nvme,"
                + " nvme-sata, vs striping";
    }

    @Override
    public String figure() {
        return "MOST (Cerberus) Figure 11: YCSB on CacheLib";
    }

    @Override
    public String setup(boolean quick) {
        return "Zipfian 0.8, 1 KiB values, 16-byte keys; a miss sleeps 1.5 ms x the emulation's x20 (30 ms) and sets;"
                + " paper: 20M records, 4 GB DRAM, 256 threads; YCSB D (read-latest) is not among ours, E is excluded"
                + " by the paper too. " + commonSetup(quick);
    }

    @Override
    public Findings findings(List<StepResult> results) {
        List<Comparison> c = new ArrayList<>();
        for (String h : HIERARCHIES) {
            c.add(new Comparison(h + ": most / best other throughput, the largest over A, B, C, F", "up to 1.43x",
                    Cells.number(maxMostOverBest(results, h, YCSB), 2) + "x"));
            double p99 = YCSB.stream().mapToDouble(w -> {
                StepResult r = at(results, h, w);
                return 1 - r.run("most").number("p99_us") / bestOther(r, "p99_us", true);
            }).max().orElse(Double.NaN);
            c.add(new Comparison(h + ": P99 latency below the best other policy's, the largest over the workloads",
                    "up to 30% less", Cells.percent(p99)));
        }
        return normalisedThroughput(results, "striping", c);
    }
}
