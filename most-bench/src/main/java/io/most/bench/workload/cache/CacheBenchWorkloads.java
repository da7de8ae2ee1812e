package io.most.bench.workload.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The MOST paper's CacheLib experiments as cache workloads, each scaled to this machine (the scale is
 * in its description and in docs/BENCH.md). The paper's numbers of keys are divided by the factor its
 * description states, so the flash holds tens of MiB of emulated device memory per policy instead of
 * 100-450 GB; value and key sizes, operation shares and distributions are the paper's.
 *
 * <ul>
 *   <li>Fig. 8a, {@code cache-small-1to1}, {@code -3to1}, {@code -9to1}: small-object look-aside, 1 KiB
 *       values, zipfian, Get:Set swept;</li>
 *   <li>Fig. 8b, {@code cache-large-1to1}, {@code -3to1}, {@code -9to1}: the same with 16 KiB values;</li>
 *   <li>Table 4 / Fig. 9 / Table 5: {@code cache-flat-kvcache}, {@code cache-graph-leader},
 *       {@code cache-kvcache-reg}, {@code cache-kvcache-wc};</li>
 *   <li>Fig. 10, {@code cache-burst}: 95% GET, a hot set, 2-4 KiB values, load bursts;</li>
 *   <li>Fig. 11, {@code cache-ycsb-a}, {@code -b}, {@code -c}, {@code -f}: YCSB look-aside with a 1.5 ms
 *       backing-store fetch on a miss.</li>
 * </ul>
 */
public final class CacheBenchWorkloads {
    /** Fig. 8's Get:Set ratios, as shares of gets. */
    static final int[][] GET_SET_RATIOS = {{1, 1}, {3, 1}, {9, 1}};
    /** Fig. 8a: 25M keys of 1 KB, here 100,000. */
    static final long SMALL_KEYS = 100_000;
    /** Fig. 8b: 5M keys of 16 KB, here 5,000. */
    static final long LARGE_KEYS = 5_000;
    /** YCSB's default skew: Fig. 8 says "Zipfian" without one. */
    static final double FIG8_THETA = 0.99;
    /** Fig. 11's skew. */
    static final double YCSB_THETA = 0.8;
    /** Fig. 11's backing-store fetch: 1.5 ms. */
    static final double FETCH_MICROS = 1500;
    /** Fig. 10: bursts of 60 s every 180 s, shortened 20x. */
    static final long BURST_PERIOD_NANOS = 9_000_000_000L;
    static final long BURST_NANOS = 3_000_000_000L;

    private CacheBenchWorkloads() {
    }

    /** Every workload, in the paper's order. */
    public static List<CacheWorkload> all() {
        List<CacheWorkload> all = new ArrayList<>();
        CacheKeys sixteen = new CacheKeys(16, 16);
        for (int[] ratio : GET_SET_RATIOS) {
            double get = (double) ratio[0] / (ratio[0] + ratio[1]);
            String suffix = ratio[0] + "to" + ratio[1];
            all.add(of(new CacheBenchSpec("cache-small-" + suffix, "MOST Fig. 8a small-object look-aside, Get:Set "
                    + ratio[0] + ":" + ratio[1], "scale 1/250 of the paper's 25M keys (default --records "
                    + SMALL_KEYS + ", 100 MiB of values); the paper's DRAM 200 MB is 0.8% of them, give --dram 4m"
                    + " (the cache's smallest useful DRAM: 2 MiB of it are region buffers)", get, 1 - get, 0, 0, 0,
                    sixteen, new UniformValues(1024, 1024), new CacheBenchSpec.Zipf(FIG8_THETA), 0, Optional.empty(),
                    SMALL_KEYS)));
        }
        for (int[] ratio : GET_SET_RATIOS) {
            double get = (double) ratio[0] / (ratio[0] + ratio[1]);
            String suffix = ratio[0] + "to" + ratio[1];
            all.add(of(new CacheBenchSpec("cache-large-" + suffix, "MOST Fig. 8b large-object look-aside, Get:Set "
                    + ratio[0] + ":" + ratio[1], "scale 1/1000 of the paper's 5M keys (default --records " + LARGE_KEYS
                    + ", 80 MiB of values); paper DRAM 200 MB, give --dram 4m", get, 1 - get, 0, 0, 0, sixteen,
                    new UniformValues(16384, 16384), new CacheBenchSpec.Zipf(FIG8_THETA), 0, Optional.empty(),
                    LARGE_KEYS)));
        }
        all.add(production("cache-flat-kvcache", "A", 0.98, 0, 0.02, 0, new CacheKeys(16, 255), 335, 300_000));
        all.add(production("cache-graph-leader", "B", 0.82, 0, 0.18, 0, new CacheKeys(8, 16), 860, 120_000));
        all.add(production("cache-kvcache-reg", "C", 0.87, 0.12, 1.04e-05, 0.003, new CacheKeys(8, 16), 33112, 3_000));
        all.add(production("cache-kvcache-wc", "D", 0.6, 0, 8.2e-06, 0.21, new CacheKeys(8, 16), 92422, 1_000));
        all.add(of(new CacheBenchSpec("cache-burst", "MOST Fig. 10 dynamic cache workload", "scale: the paper's 25M"
                + " keys of 2-4 KB (a 450 GB SOC) are 30,000 here (90 MiB), its bursts of 60 s every 180 s are 3 s every"
                + " 9 s (the 1:3 duty cycle, 20x shorter); give --dram 4m", 0.95, 0.05, 0, 0, 0, sixteen,
                new UniformValues(2048, 4096), new CacheBenchSpec.HotSet(0.2, 0.9), 0,
                Optional.of(new CacheBenchSpec.Burst(BURST_PERIOD_NANOS, BURST_NANOS)), 30_000)));
        all.add(ycsb("a", 0.5, 0.5, 0));
        all.add(ycsb("b", 0.95, 0.05, 0));
        all.add(ycsb("c", 1.0, 0, 0));
        all.add(ycsb("f", 0.5, 0, 0.5));
        return List.copyOf(all);
    }

    /**
     * A Table 4 mix: its Get / Set / LoneGet / LoneSet shares (normalised to add up to 1: the table's rows
     * add up to 0.81-1), key sizes and average value size (values uniform in [avg / 2, 3 avg / 2]: the
     * table gives only the mean).
     */
    private static CacheWorkload production(String name, String letter, double get, double set, double loneGet,
                                            double loneSet, CacheKeys keys, int meanValue, long defaultKeys) {
        double total = get + set + loneGet + loneSet;
        UniformValues values = UniformValues.around(meanValue);
        return of(new CacheBenchSpec(name, "MOST Table 4 production mix " + letter + " (" + name.substring(6) + ")",
                String.format(java.util.Locale.ROOT, "Table 4's shares normalised by their sum %.4g; keys zipfian"
                        + " 0.99 (the trace's popularity is not in the paper); scale: default --records %,d (about"
                        + " %d MiB of values; the paper's trace key counts are not given), the paper's 1 GB DRAM"
                        + " as --dram 8m", total, defaultKeys, defaultKeys * meanValue >> 20),
                get / total, set / total, 0, loneGet / total, loneSet / total, keys, values,
                new CacheBenchSpec.Zipf(FIG8_THETA), 0, Optional.empty(), defaultKeys));
    }

    /** Fig. 11: YCSB {@code letter}'s reads as look-aside gets, updates as sets, read-modify-writes as both. */
    private static CacheWorkload ycsb(String letter, double get, double set, double readModifyWrite) {
        return of(new CacheBenchSpec("cache-ycsb-" + letter, "MOST Fig. 11 YCSB " + letter.toUpperCase(java.util.Locale.ROOT)
                + " look-aside", "scale 1/200 of the paper's 20M records (default --records 100,000), its 4 GB DRAM"
                + " as --dram 20m", get, set, readModifyWrite, 0, 0, new CacheKeys(16, 16),
                new UniformValues(1024, 1024), new CacheBenchSpec.Zipf(YCSB_THETA), FETCH_MICROS, Optional.empty(),
                100_000));
    }

    private static CacheWorkload of(CacheBenchSpec spec) {
        return new CacheBenchWorkload(spec);
    }
}
