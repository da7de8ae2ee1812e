package io.most.tier.policy;

/**
 * What a {@link PlacementPolicy} sees of its volume and may ask it to do. Segments are numbered
 * {@code 0 .. segmentCount()-1} in logical address order.
 *
 * <p><b>Reading state.</b> Class, hotness and latency are read without locks and may be a moment
 * old; they are hints. Every action re-checks its preconditions under the segment's lock and returns
 * {@code false} if they no longer hold.
 *
 * <p><b>Actions</b> ({@link #mirror}, {@link #unmirror}, {@link #move}) may only be called from
 * {@link PlacementPolicy#optimize}. They copy data while foreground I/O continues, make the new
 * mapping durable before the old location is reused, count every byte they copy, and draw on the
 * volume's migration budget ({@link io.most.tier.TierConfig#migrationBytesPerSecond()}): when the budget of this
 * interval is spent they return {@code false} without doing anything.
 */
public interface PolicyContext {

    /** How often the volume calls {@link PlacementPolicy#tune} ({@code TierConfig.optimizerInterval}). */
    java.time.Duration optimizerInterval();

    /** Weight of the newest sample in the latency averages ({@code TierConfig.latencyEwmaAlpha}). */
    double latencyEwmaAlpha();

    /** Number of logical segments. */
    int segmentCount();

    /** Bytes per segment. */
    int segmentBytes();

    /** Where {@code segment} lives now. */
    SegmentClass segmentClass(int segment);

    /** Reads of {@code segment}, halved at each cooling (HeMem style), 0..255. */
    int readHeat(int segment);

    /** Writes of {@code segment}, halved at each cooling, 0..255. */
    int writeHeat(int segment);

    /** {@code readHeat + writeHeat}: the access frequency used to rank segments. */
    default int heat(int segment) {
        return readHeat(segment) + writeHeat(segment);
    }

    /** Whether reads or writes of {@code segment} reach {@link io.most.tier.TierConfig#hotThreshold()}. */
    boolean isHot(int segment);

    /**
     * The average number of reads between two writes of {@code segment} (MOST's rewrite distance),
     * as a moving average over recent writes.
     */
    double rewriteDistance(int segment);

    /** Reads of {@code segment} since it was last written (saturates at 65535). */
    int readsSinceWrite(int segment);

    /** Subpages of mirrored {@code segment} that are valid on one device only; 0 if not mirrored. */
    int invalidSubpages(int segment);

    /**
     * The copy to keep when mirrored {@code segment} is unmirrored (MOST paper 3.2.3): the performance
     * copy if all its subpages are valid, else the capacity copy if all of its are, else the copy with
     * more valid subpages.
     */
    Tier preferredCopy(int segment);

    /** Up to {@code max} segments of class {@code cls}, hottest first (ties by segment number). */
    int[] hottest(SegmentClass cls, int max);

    /** Up to {@code max} segments of class {@code cls}, coldest first (ties by segment number). */
    int[] coldest(SegmentClass cls, int max);

    /**
     * Up to {@code max} segments of class {@code cls}, highest {@link #readHeat} first (ties by
     * segment number): the ranking of policies that count reads only (Colloid).
     */
    int[] hottestByReads(SegmentClass cls, int max);

    /**
     * The device's end-to-end latency per request as the volume measures it (EWMA over optimizer
     * intervals), in nanoseconds; NaN until the device has served a foreground request.
     */
    double latencyNanos(Tier tier);

    /**
     * Foreground requests the device has completed since the volume opened (the counter behind
     * {@link #latencyNanos}); policies that optimise throughput take differences per interval.
     * Zero for contexts that do not count.
     */
    default long requests(Tier tier) {
        return 0;
    }

    /** Data segments (slots) the device holds. */
    int slots(Tier tier);

    /** Slots of the device that hold no segment. */
    int freeSlots(Tier tier);

    /** Segments in the mirrored class. */
    int mirroredSegments();

    /** Bytes the actions may still copy in this optimizer interval. */
    long migrationBudget();

    /** Copies tiered {@code segment} to the other device and makes it mirrored. */
    boolean mirror(int segment);

    /**
     * Makes mirrored {@code segment} tiered on {@code keep}, first copying to it the subpages that are
     * valid only on the other device, and frees the other copy.
     */
    boolean unmirror(int segment, Tier keep);

    /** Moves tiered {@code segment} to device {@code to}. */
    boolean move(int segment, Tier to);

    /**
     * Mirrors each of {@code segments} as {@link #mirror} does, in order; a volume copies them together
     * (several segments' blocks in one batch per device). The default mirrors them one at a time.
     *
     * @return for each segment, whether it was mirrored; once the migration budget or the free slots ran
     *         out, the segments after it were not tried
     */
    default boolean[] mirrorAll(int[] segments) {
        boolean[] done = new boolean[segments.length];
        for (int i = 0; i < segments.length && (done[i] = mirror(segments[i])); i++) {
            // each one in turn until one cannot
        }
        return done;
    }

    /**
     * Moves each of {@code segments} to {@code to} as {@link #move} does, in order; a volume copies them
     * together (several segments' blocks in one batch per device). The default moves them one at a time.
     *
     * @return for each segment, whether it was moved; once the migration budget or the free slots ran
     *         out, the segments after it were not tried
     */
    default boolean[] moveAll(int[] segments, Tier to) {
        boolean[] done = new boolean[segments.length];
        for (int i = 0; i < segments.length && (done[i] = move(segments[i], to)); i++) {
            // each one in turn until one cannot
        }
        return done;
    }
}
