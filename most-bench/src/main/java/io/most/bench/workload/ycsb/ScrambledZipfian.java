package io.most.bench.workload.ycsb;

import java.util.SplittableRandom;

/**
 * YCSB's scrambled zipfian key chooser: a zipfian rank over {@code n} items (Gray et al., "Quickly
 * generating billion-record synthetic databases", SIGMOD '94, the algorithm of YCSB's
 * {@code ZipfianGenerator}), then the rank hashed with 64-bit FNV-1a and taken modulo {@code n}, so
 * that the popular items are spread over the key space instead of sitting at its start.
 *
 * <p>Rank {@code r} (0 = most popular) is drawn with probability {@code 1 / ((r + 1)^theta * zeta(n,
 * theta))}, exactly for ranks 0 and 1 and by Gray's continuous approximation beyond. The constructor
 * draws ranks over the {@code n} items themselves, so the most popular item has the textbook
 * frequency {@code 1 / zeta(n, theta)}; computing zeta costs O(n) once. {@link #ycsb(long)} is YCSB's
 * own variant, which the {@code ycsb-*} workloads use: ranks over a fixed 10^10 + 1 items with the
 * precomputed zeta constant, hashed into {@code n} (so its most popular item has about
 * {@code 1 / zeta(10^10, 0.99)} = 3.8% of the draws whatever {@code n} is).
 *
 * <p>Immutable and thread-safe: each caller passes its own random source. Public for the JMH
 * benchmarks in {@code io.most.bench.jmh}.
 */
public final class ScrambledZipfian {
    /** YCSB's default skew. */
    public static final double YCSB_THETA = 0.99;

    /** YCSB's {@code ScrambledZipfianGenerator.ITEM_COUNT}: the rank space of {@link #ycsb(long)}. */
    static final long YCSB_RANK_ITEMS = 10_000_000_000L;
    /** YCSB's {@code ScrambledZipfianGenerator.ZETAN}: zeta(10^10, 0.99), precomputed. */
    static final double YCSB_ZETAN = 26.46902820178302;

    private static final long FNV_OFFSET_BASIS_64 = 0xCBF29CE484222325L;
    private static final long FNV_PRIME_64 = 1099511628211L;

    private final long items;
    private final long rankItems;
    private final double theta;
    private final double zetan;
    private final double alpha;
    private final double eta;
    private final double secondThreshold;

    /**
     * @param items how many items, at least 2
     * @param theta skew within [0, 1): 0 is uniform, YCSB uses {@value #YCSB_THETA}
     */
    public ScrambledZipfian(long items, double theta) {
        this(items, checkItems(items), theta, zeta(items, checkTheta(theta)));
    }

    private ScrambledZipfian(long items, long rankItems, double theta, double zetan) {
        this.items = items;
        this.rankItems = rankItems;
        this.theta = theta;
        this.zetan = zetan;
        double zeta2 = zeta(2, theta);
        this.alpha = 1 / (1 - theta);
        this.eta = (1 - Math.pow(2.0 / rankItems, 1 - theta)) / (1 - zeta2 / zetan);
        this.secondThreshold = 1 + Math.pow(0.5, theta);
    }

    /**
     * YCSB's {@code ScrambledZipfianGenerator(0, items - 1)} (constant 0.99): a rank of
     * {@code ZipfianGenerator(0, 10^10, 0.99, ZETAN)}, then {@code fnvhash64(rank) % items}.
     */
    public static ScrambledZipfian ycsb(long items) {
        return new ScrambledZipfian(checkItems(items), YCSB_RANK_ITEMS + 1, YCSB_THETA, YCSB_ZETAN);
    }

    private static long checkItems(long items) {
        if (items < 2) {
            throw new IllegalArgumentException("a zipfian distribution needs at least 2 items, got " + items);
        }
        return items;
    }

    private static double checkTheta(double theta) {
        if (!(theta >= 0 && theta < 1)) {
            throw new IllegalArgumentException("zipfian theta must be within [0, 1), got " + theta);
        }
        return theta;
    }

    /** {@code sum_{i=1..n} 1 / i^theta}. */
    static double zeta(long n, double theta) {
        double sum = 0;
        for (long i = 1; i <= n; i++) {
            sum += 1 / Math.pow(i, theta);
        }
        return sum;
    }

    /** Number of items. */
    public long items() {
        return items;
    }

    /** The skew. */
    public double theta() {
        return theta;
    }

    /** The probability of rank {@code r} (0-based) under the exact distribution. */
    double probabilityOfRank(long r) {
        return 1 / (Math.pow(r + 1, theta) * zetan);
    }

    /** A zipfian rank in [0, rank items): 0 is the most popular. Not scrambled. */
    long nextRank(SplittableRandom random) {
        double u = random.nextDouble();
        double uz = u * zetan;
        if (uz < 1) {
            return 0;
        }
        if (uz < secondThreshold) {
            return 1;
        }
        long rank = (long) (rankItems * Math.pow(eta * u - eta + 1, alpha));
        return Math.min(Math.max(rank, 0), rankItems - 1);
    }

    /** The next item in [0, items): a zipfian rank, scrambled. */
    public long next(SplittableRandom random) {
        return itemOfRank(nextRank(random));
    }

    /** Where rank {@code r} lands in the key space. */
    long itemOfRank(long rank) {
        return Math.floorMod(Math.abs(fnv1a64(rank)), items); // YCSB: abs(hash) % items
    }

    /** 64-bit FNV-1a over the eight little-endian bytes of {@code value}, as YCSB's {@code Utils.fnvhash64}. */
    public static long fnv1a64(long value) {
        long hash = FNV_OFFSET_BASIS_64;
        long v = value;
        for (int i = 0; i < Long.BYTES; i++) {
            hash ^= v & 0xFF;
            hash *= FNV_PRIME_64;
            v >>>= 8;
        }
        return hash;
    }
}
