package io.most.bench.workload.ycsb;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.StringJoiner;

/**
 * One of YCSB's core workloads A-F: the proportions of each operation and how request keys are
 * chosen, as in YCSB 0.17's {@code workloads/workloada} .. {@code workloadf} files; or the multi-get mix
 * ({@link #multiGet}), which YCSB does not define.
 *
 * @param name          the workload's name, {@code ycsb-a} .. {@code ycsb-f}, {@code ycsb-multiget}
 * @param letter        a .. f; m for the multi-get mix
 * @param proportions   share of each operation (those absent are 0)
 * @param distribution  how keys of reads, updates and scans are chosen
 * @param maxScanLength scan lengths are uniform in 1..this (workload E: 100)
 * @param description   one line for the usage text
 */
record YcsbMix(String name, char letter, Map<YcsbOperation, Double> proportions, Distribution distribution, int maxScanLength,
               String description) {

    /** YCSB's {@code requestdistribution}. */
    enum Distribution {
        /** {@code ScrambledZipfianGenerator} over the records and the expected inserts. */
        ZIPFIAN,
        /** {@code SkewedLatestGenerator}: the most recently inserted records are the most popular. */
        LATEST
    }

    /**
     * Keys per multi-get: 16, the batch of the target and a common page of results (RocksDB's
     * own MultiGet benchmarks use 16 to 64).
     */
    static final int MULTI_GET_KEYS = 16;

    /** YCSB's {@code maxscanlength} default; only workload E scans, and sets 100. */
    static final int YCSB_DEFAULT_MAX_SCAN_LENGTH = 1000;

    YcsbMix {
        proportions = Map.copyOf(proportions);
    }

    /** The six core workloads. */
    static YcsbMix[] core() {
        return new YcsbMix[] {
            of('a', Distribution.ZIPFIAN, YCSB_DEFAULT_MAX_SCAN_LENGTH, "update heavy: 50% reads, 50% updates",
                    YcsbOperation.READ, 0.5, YcsbOperation.UPDATE, 0.5),
            of('b', Distribution.ZIPFIAN, YCSB_DEFAULT_MAX_SCAN_LENGTH, "read mostly: 95% reads, 5% updates",
                    YcsbOperation.READ, 0.95, YcsbOperation.UPDATE, 0.05),
            of('c', Distribution.ZIPFIAN, YCSB_DEFAULT_MAX_SCAN_LENGTH, "read only: 100% reads", YcsbOperation.READ, 1.0),
            of('d', Distribution.LATEST, YCSB_DEFAULT_MAX_SCAN_LENGTH, "read latest: 95% reads, 5% inserts, latest distribution",
                    YcsbOperation.READ, 0.95, YcsbOperation.INSERT, 0.05),
            of('e', Distribution.ZIPFIAN, 100, "short ranges: 95% scans of 1..100 records, 5% inserts",
                    YcsbOperation.SCAN, 0.95, YcsbOperation.INSERT, 0.05),
            of('f', Distribution.ZIPFIAN, YCSB_DEFAULT_MAX_SCAN_LENGTH, "read-modify-write: 50% reads, 50% read-modify-writes",
                    YcsbOperation.READ, 0.5, YcsbOperation.READ_MODIFY_WRITE, 0.5),
        };
    }

    /**
     * Multi-gets only: each operation reads {@link #MULTI_GET_KEYS} keys chosen as workload C chooses
     * one (zipfian), as a client's {@code MGET}, {@code getAll} or RocksDB {@code MultiGet}.
     */
    static YcsbMix multiGet() {
        return of('m', Distribution.ZIPFIAN, YCSB_DEFAULT_MAX_SCAN_LENGTH,
                "multi-get: 100% reads of " + MULTI_GET_KEYS + " keys at once", YcsbOperation.MULTI_GET, 1.0);
    }

    private static YcsbMix of(char letter, Distribution distribution, int maxScan, String description,
                              Object... operationsAndShares) {
        Map<YcsbOperation, Double> shares = new EnumMap<>(YcsbOperation.class);
        for (int i = 0; i < operationsAndShares.length; i += 2) {
            shares.put((YcsbOperation) operationsAndShares[i], (Double) operationsAndShares[i + 1]);
        }
        String name = letter == 'm' ? "ycsb-multiget" : "ycsb-" + letter;
        return new YcsbMix(name, letter, shares, distribution, maxScan, description);
    }

    /** The share of {@code op}, 0 if the mix has none. */
    double proportion(YcsbOperation op) {
        return proportions.getOrDefault(op, 0.0);
    }

    /**
     * The next operation, as YCSB's {@code DiscreteGenerator}: one uniform draw walked down the
     * operations in CoreWorkload's order (read, update, insert, scan, read-modify-write).
     */
    YcsbOperation nextOperation(SplittableRandom random) {
        double sum = 0;
        for (double p : proportions.values()) {
            sum += p;
        }
        double val = random.nextDouble();
        YcsbOperation last = null;
        for (YcsbOperation op : YcsbOperation.values()) {
            double share = proportion(op);
            if (share <= 0) {
                continue;
            }
            last = op;
            double pw = share / sum;
            if (val < pw) {
                return op;
            }
            val -= pw;
        }
        return last; // rounding left val a hair above the last share
    }

    /**
     * How many keys beyond the loaded records the zipfian chooser spans: CoreWorkload's
     * {@code expectednewkeys = operationcount * insertproportion * 2}. Runs here are timed, not
     * counted, so the operation count is taken to be the record count (YCSB's usual setting).
     */
    long expectedNewKeys(long records) {
        return (long) (records * proportion(YcsbOperation.INSERT) * 2.0);
    }

    /** E.g. "read 0.95, update 0.05". */
    String mixText() {
        StringJoiner j = new StringJoiner(", ");
        for (YcsbOperation op : YcsbOperation.values()) {
            if (proportion(op) > 0) {
                j.add(String.format(Locale.ROOT, "%s %.2f", op.name().toLowerCase(Locale.ROOT), proportion(op)));
            }
        }
        return j.toString();
    }
}
