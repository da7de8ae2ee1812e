package io.most.bench.workload.ycsb;

import java.util.SplittableRandom;

/**
 * YCSB's {@code SkewedLatestGenerator}: {@code limit - zipfian(limit)}, so the most recently inserted
 * records are the most popular. The zipfian is YCSB's {@code ZipfianGenerator(items)} with constant
 * 0.99 whose zeta grows incrementally as inserts raise the limit, keeping YCSB's quirk that {@code eta}
 * is recomputed with the original item count. One per driver thread: each keeps its own incremental
 * zeta, which YCSB shares under a lock.
 */
final class SkewedLatest {
    private static final double THETA = ScrambledZipfian.YCSB_THETA;

    private final long items;
    private final double alpha;
    private final double zeta2;
    private final double secondThreshold;
    private long countForZeta;
    private double zetan;
    private double eta;

    /** @param initialLimit the highest inserted key number when the run starts (YCSB: records - 1) */
    SkewedLatest(long initialLimit) {
        if (initialLimit < 2) {
            throw new IllegalArgumentException("the latest distribution needs at least 3 records");
        }
        this.items = initialLimit;
        this.alpha = 1 / (1 - THETA);
        this.zeta2 = ScrambledZipfian.zeta(2, THETA);
        this.secondThreshold = 1 + Math.pow(0.5, THETA);
        this.countForZeta = initialLimit;
        this.zetan = ScrambledZipfian.zeta(initialLimit, THETA);
        this.eta = etaFor(zetan);
    }

    private double etaFor(double zeta) {
        return (1 - Math.pow(2.0 / items, 1 - THETA)) / (1 - zeta2 / zeta);
    }

    /** A key number in (0, limit], skewed towards {@code limit}. */
    long next(long limit, SplittableRandom random) {
        return limit - nextZipfian(limit, random);
    }

    /** YCSB's {@code ZipfianGenerator.nextLong(itemcount)}. */
    long nextZipfian(long itemCount, SplittableRandom random) {
        if (itemCount > countForZeta) {
            for (long i = countForZeta; i < itemCount; i++) {
                zetan += 1 / Math.pow(i + 1, THETA);
            }
            countForZeta = itemCount;
            eta = etaFor(zetan);
        }
        double u = random.nextDouble();
        double uz = u * zetan;
        if (uz < 1) {
            return 0;
        }
        if (uz < secondThreshold) {
            return 1;
        }
        return (long) (itemCount * Math.pow(eta * u - eta + 1, alpha));
    }
}
