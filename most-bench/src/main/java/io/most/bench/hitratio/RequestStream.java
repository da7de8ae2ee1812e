package io.most.bench.hitratio;

import io.most.bench.workload.ycsb.ScrambledZipfian;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A deterministic stream of page ids over {@code pages} pages: scrambled zipfian point reads
 * (YCSB's generator), optionally interleaved with sequential scans. Same seed, same stream.
 */
final class RequestStream {
    /** Pages per scan in the scan mix. */
    static final int SCAN_LENGTH = 64;

    /** The mixes {@link HitRatioReplay} runs. */
    enum Mix {
        /** Zipfian point reads only (YCSB-C on pages). */
        ZIPF,
        /**
         * Half the requests from sequential scans of {@value RequestStream#SCAN_LENGTH} pages at random
         * starts, the other half zipfian point reads (a scan starts with probability 1/64 per point read).
         */
        ZIPF_WITH_SCANS;

        String label(double theta) {
            String zipf = String.format(Locale.ROOT, "zipf-%.2f", theta);
            return this == ZIPF ? zipf : zipf + "+scans";
        }
    }

    private final long pages;
    private final Mix mix;
    private final ScrambledZipfian zipf;
    private final SplittableRandom random;
    private long scanNext;
    private int scanLeft;

    RequestStream(long pages, double theta, Mix mix, long seed) {
        this.pages = pages;
        this.mix = mix;
        this.zipf = new ScrambledZipfian(pages, theta);
        this.random = new SplittableRandom(seed);
    }

    long next() {
        if (scanLeft > 0) {
            scanLeft--;
            long page = scanNext;
            scanNext = (scanNext + 1) % pages;
            return page;
        }
        if (mix == Mix.ZIPF_WITH_SCANS && random.nextInt(SCAN_LENGTH) == 0) {
            scanNext = random.nextLong(pages);
            scanLeft = SCAN_LENGTH;
            return next();
        }
        return zipf.next(random);
    }
}
