package io.most.buffer;

/**
 * The two decision points non-hierarchical caching (Orthus, FAST '21, section 4.2) adds to the buffer
 * manager, as the paths that serve reads and admit pages read them: <b>load admission</b>, the share
 * of reads of clean PM-resident pages sent to the block device instead of PM ({@link #drawOffload}),
 * and <b>data admission</b>, whether a read miss or a clean DRAM eviction may still install its page
 * in PM ({@link #admits}). {@link NhcTuner} sets both; with non-hierarchical caching off nobody does,
 * and the store caches classically: nothing offloaded, every admission the migration policy draws.
 *
 * <p>The paper's {@code la} is the share of read hits sent to the cache device; {@link #offloadRatio}
 * is its complement (the share sent <em>around</em> it), so classic caching is 0 here, as in the
 * tiered volume's {@code OrthusPolicy}. Writes are not routed: NHC leaves write allocation to the
 * classic policy, and a dirty page is never read from the block device's stale copy
 * ({@link OffloadedRead} checks).
 *
 * <p>Thread-safe: two volatile fields, written by the tuner's thread alone, and a plain copy of
 * "offloading" for the hit paths ({@link #offloading}), which draw a random number only while offloading.
 */
final class LoadAdmission {
    private final BufferCounters counters;
    private volatile double offloadRatio;
    private volatile boolean admitData = true;
    /**
     * {@code offloadRatio > 0}, plain: the optimistic PM hit reads it, and a volatile read there is a
     * compiler barrier after which every field the hit reads is loaded again (measured: the PM cursor hit
     * 8% slower). A hit that has not seen a change yet serves the page from PM, which is always correct:
     * only the share offloaded lags, and the latched path reads the volatile ratio.
     */
    private boolean offloadingHint;

    LoadAdmission(BufferCounters counters) {
        this.counters = counters;
    }

    /**
     * Whether reads of PM-resident pages may be sent to the block device at present: while they may,
     * the inlined PM read hit and the optimistic PM reads step aside for the latched path, which draws
     * ({@link #drawOffload}) once per read.
     */
    boolean offloading() {
        return offloadingHint;
    }

    /** Whether this read of a page buffered in PM goes to the block device instead (drawn per call). */
    boolean drawOffload() {
        double ratio = offloadRatio;
        return ratio > 0 && PageAccess.draw(ratio);
    }

    /**
     * Data admission: whether a page that classic caching would install in PM ({@code classicWould},
     * as the migration policy drew it) is installed; a refused one counts as an admission skipped.
     */
    boolean admits(boolean classicWould) {
        if (classicWould && !admitData) {
            counters.admissionsSkipped.increment();
            return false;
        }
        return classicWould;
    }

    /** The share of reads of clean PM-resident pages sent to the block device. */
    double offloadRatio() {
        return offloadRatio;
    }

    /** Whether pages are admitted into PM (classic caching), else only served around it. */
    boolean admitsData() {
        return admitData;
    }

    /** The tuner's decision for the next interval. */
    void set(double ratio, boolean dataAdmission) {
        if (!(ratio >= 0 && ratio <= 1)) {
            throw new IllegalArgumentException("offload ratio must be within [0, 1], got " + ratio);
        }
        this.admitData = dataAdmission;
        this.offloadRatio = ratio;
        this.offloadingHint = ratio > 0;
    }
}
