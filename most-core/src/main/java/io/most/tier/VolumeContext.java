package io.most.tier;

import io.most.tier.policy.PolicyContext;

import io.most.tier.policy.SegmentClass;

import io.most.tier.policy.Tier;

import java.util.Arrays;
import java.util.function.IntUnaryOperator;

/** The {@link PolicyContext} of a volume: read access to the shared state, actions through the {@link Migrator}. */
final class VolumeContext implements PolicyContext {
    private static final int MAX_HEAT = 510;

    private final TierConfig config;
    private final VolumeLayout layout;
    private final SegmentTable table;
    private final HotnessTracker hotness;
    private final LatencyMonitor latency;
    private final SlotPool[] pools;
    private final Migrator migrator;
    private final RateLimiter limiter;

    VolumeContext(TierConfig config, VolumeLayout layout, SegmentTable table, HotnessTracker hotness,
                  LatencyMonitor latency, SlotPool[] pools, Migrator migrator, RateLimiter limiter) {
        this.config = config;
        this.layout = layout;
        this.table = table;
        this.hotness = hotness;
        this.latency = latency;
        this.pools = pools;
        this.migrator = migrator;
        this.limiter = limiter;
    }

    @Override
    public java.time.Duration optimizerInterval() {
        return config.optimizerInterval();
    }

    @Override
    public double latencyEwmaAlpha() {
        return config.latencyEwmaAlpha();
    }

    @Override
    public int segmentCount() {
        return table.size();
    }

    @Override
    public int segmentBytes() {
        return layout.segmentSize();
    }

    @Override
    public SegmentClass segmentClass(int segment) {
        return table.classOf(segment);
    }

    @Override
    public int readHeat(int segment) {
        return hotness.reads(segment);
    }

    @Override
    public int writeHeat(int segment) {
        return hotness.writes(segment);
    }

    @Override
    public int heat(int segment) {
        return hotness.heat(segment);
    }

    @Override
    public boolean isHot(int segment) {
        return hotness.isHot(segment);
    }

    @Override
    public double rewriteDistance(int segment) {
        return hotness.rewriteDistance(segment);
    }

    @Override
    public int readsSinceWrite(int segment) {
        return hotness.readsSinceWrite(segment);
    }

    @Override
    public int invalidSubpages(int segment) {
        MirrorState m = table.mirror(segment);
        return m == null ? 0 : m.invalidCount();
    }

    @Override
    public Tier preferredCopy(int segment) {
        MirrorState m = table.mirror(segment);
        return m == null ? Tier.PERFORMANCE : Migrator.preferredCopy(m);
    }

    @Override
    public int[] hottest(SegmentClass cls, int max) {
        return ranked(cls, max, true, hotness::heat);
    }

    @Override
    public int[] coldest(SegmentClass cls, int max) {
        return ranked(cls, max, false, hotness::heat);
    }

    @Override
    public int[] hottestByReads(SegmentClass cls, int max) {
        return ranked(cls, max, true, hotness::reads);
    }

    /**
     * The {@code max} hottest (or coldest) segments of a class in two linear passes: heat is small
     * (0..510), so a histogram finds the cut-off heat and a second pass collects the segments beyond it.
     * {@code score} is the heat, or one of its two counters.
     */
    private int[] ranked(SegmentClass cls, int max, boolean hottestFirst, IntUnaryOperator score) {
        if (max <= 0) {
            return new int[0];
        }
        int[] histogram = new int[MAX_HEAT + 1];
        int n = table.size();
        for (int s = 0; s < n; s++) {
            if (table.classOf(s) == cls) {
                histogram[score.applyAsInt(s)]++;
            }
        }
        int cut = hottestFirst ? MAX_HEAT : 0;
        int taken = 0;
        while (cut >= 0 && cut <= MAX_HEAT && taken + histogram[cut] < max) {
            taken += histogram[cut];
            cut += hottestFirst ? -1 : 1;
        }
        long[] keys = new long[Math.min(max, taken + (cut >= 0 && cut <= MAX_HEAT ? histogram[cut] : 0))];
        int k = 0;
        for (int s = 0; s < n && k < keys.length; s++) {
            if (table.classOf(s) != cls) {
                continue;
            }
            int heat = score.applyAsInt(s);
            boolean beyond = hottestFirst ? heat > cut : heat < cut;
            if (beyond || (heat == cut && taken < max)) {
                if (!beyond) {
                    taken++;
                }
                int order = hottestFirst ? MAX_HEAT - heat : heat;
                keys[k++] = (long) order << 32 | s;
            }
        }
        Arrays.sort(keys, 0, k);
        int[] result = new int[k];
        for (int i = 0; i < k; i++) {
            result[i] = (int) keys[i];
        }
        return result;
    }

    @Override
    public double latencyNanos(Tier tier) {
        return latency.nanos(tier);
    }

    @Override
    public long requests(Tier tier) {
        return latency.requests(tier);
    }

    @Override
    public int slots(Tier tier) {
        return pools[tier.ordinal()].slots();
    }

    @Override
    public int freeSlots(Tier tier) {
        return pools[tier.ordinal()].free();
    }

    @Override
    public int mirroredSegments() {
        return table.mirroredSegments();
    }

    @Override
    public long migrationBudget() {
        return limiter.available();
    }

    @Override
    public boolean mirror(int segment) {
        return migrator.mirror(segment);
    }

    @Override
    public boolean unmirror(int segment, Tier keep) {
        return migrator.unmirror(segment, keep);
    }

    @Override
    public boolean move(int segment, Tier to) {
        return migrator.move(segment, to);
    }

    @Override
    public boolean[] mirrorAll(int[] segments) {
        return migrator.mirrorAll(segments);
    }

    @Override
    public boolean[] moveAll(int[] segments, Tier to) {
        return migrator.moveAll(segments, to);
    }
}
