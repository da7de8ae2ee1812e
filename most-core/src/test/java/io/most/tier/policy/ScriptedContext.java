package io.most.tier.policy;

import io.most.tier.TierConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntUnaryOperator;
import java.util.stream.IntStream;

/** A volume in arrays: classes, heat, latency and free slots as the test sets them; actions are logged. */
final class ScriptedContext implements PolicyContext {
    final SegmentClass[] classes;
    final int[] heat;
    final int[] writes;
    double lp = Double.NaN;
    double lc = Double.NaN;
    /** Requests served so far, all counted on the performance device. */
    long requests;
    int perfSlots = 10;
    int capSlots = 40;
    long budget = Long.MAX_VALUE;
    final List<String> actions = new ArrayList<>();

    ScriptedContext(int segments) {
        classes = new SegmentClass[segments];
        Arrays.fill(classes, SegmentClass.UNALLOCATED);
        heat = new int[segments];
        writes = new int[segments];
    }

    private int used(Tier t) {
        int n = 0;
        for (SegmentClass c : classes) {
            n += c == SegmentClass.MIRRORED || c == SegmentClass.tieredOn(t) ? 1 : 0;
        }
        return n;
    }

    @Override public java.time.Duration optimizerInterval() { return TierConfig.defaults().optimizerInterval(); }
    @Override public double latencyEwmaAlpha() { return TierConfig.defaults().latencyEwmaAlpha(); }
    @Override public int segmentCount() { return classes.length; }
    @Override public int segmentBytes() { return 1 << 21; }
    @Override public SegmentClass segmentClass(int s) { return classes[s]; }
    @Override public int readHeat(int s) { return heat[s]; }
    @Override public int writeHeat(int s) { return writes[s]; }
    @Override public boolean isHot(int s) { return heat[s] >= 8; }
    @Override public double rewriteDistance(int s) { return 0; }
    @Override public int readsSinceWrite(int s) { return 0; }
    @Override public int invalidSubpages(int s) { return 0; }
    @Override public Tier preferredCopy(int s) { return Tier.PERFORMANCE; }
    @Override public double latencyNanos(Tier t) { return t == Tier.PERFORMANCE ? lp : lc; }
    @Override public long requests(Tier t) { return t == Tier.PERFORMANCE ? requests : 0; }
    @Override public int slots(Tier t) { return t == Tier.PERFORMANCE ? perfSlots : capSlots; }
    @Override public int freeSlots(Tier t) { return slots(t) - used(t); }
    @Override public int mirroredSegments() { return (int) Arrays.stream(classes).filter(c -> c == SegmentClass.MIRRORED).count(); }
    @Override public long migrationBudget() { return budget; }

    @Override
    public int[] hottest(SegmentClass cls, int max) {
        return ranked(cls, max, s -> -(heat[s] + writes[s]));
    }

    @Override
    public int[] hottestByReads(SegmentClass cls, int max) {
        return ranked(cls, max, s -> -heat[s]);
    }

    @Override
    public int[] coldest(SegmentClass cls, int max) {
        return ranked(cls, max, s -> heat[s] + writes[s]);
    }

    /** Segments of {@code cls} by ascending {@code key}, ties by number, as the volume ranks them. */
    private int[] ranked(SegmentClass cls, int max, IntUnaryOperator key) {
        return IntStream.range(0, classes.length).filter(s -> classes[s] == cls).boxed()
                .sorted(Comparator.comparingInt((Integer s) -> key.applyAsInt(s)).thenComparingInt(s -> s))
                .limit(max).mapToInt(Integer::intValue).toArray();
    }

    private boolean spend() {
        if (budget < segmentBytes()) {
            return false;
        }
        budget -= segmentBytes();
        return true;
    }

    @Override
    public boolean mirror(int s) {
        if (!spend()) {
            return false;
        }
        actions.add("mirror " + s);
        classes[s] = SegmentClass.MIRRORED;
        return true;
    }

    @Override
    public boolean unmirror(int s, Tier keep) {
        actions.add("unmirror " + s + " keep " + keep);
        classes[s] = SegmentClass.tieredOn(keep);
        return true;
    }

    @Override
    public boolean move(int s, Tier to) {
        if (!spend()) {
            return false;
        }
        actions.add("move " + s + " to " + to);
        classes[s] = SegmentClass.tieredOn(to);
        return true;
    }
}
