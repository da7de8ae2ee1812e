package io.most.bench.workload.ycsb;

import java.util.SplittableRandom;

/**
 * CoreWorkload's {@code nextKeynum()} for one driver thread: a key number drawn from the mix's
 * distribution, drawn again while it is beyond the last acknowledged insert.
 */
final class YcsbKeyChooser {
    private final InsertSequence inserts;
    private final ScrambledZipfian zipfian;
    private final SkewedLatest latest;

    /**
     * @param records the loaded record count
     * @param inserts the run's insert sequence, shared by the threads
     */
    YcsbKeyChooser(YcsbMix mix, long records, InsertSequence inserts) {
        this.inserts = inserts;
        if (mix.distribution() == YcsbMix.Distribution.LATEST) {
            this.zipfian = null;
            this.latest = new SkewedLatest(records - 1);
        } else {
            // ScrambledZipfianGenerator(insertstart, insertstart + insertcount + expectednewkeys): max is
            // inclusive, so it spans one item more than the records and expected inserts
            this.zipfian = ScrambledZipfian.ycsb(records + mix.expectedNewKeys(records) + 1);
            this.latest = null;
        }
    }

    /** The next request's key number, never beyond {@link InsertSequence#limit()}. */
    long next(SplittableRandom random) {
        long limit = inserts.limit();
        if (latest != null) {
            return latest.next(limit, random);
        }
        long keynum;
        do {
            keynum = (int) zipfian.next(random); // YCSB takes intValue() of the draw
        } while (keynum > limit);
        return keynum;
    }
}
