package io.most.buffer;

/**
 * The scheduler of non-hierarchical caching (Orthus, FAST '21, Algorithm 1) for the PM tier of the
 * buffer manager, as a plant controller: each interval it is handed what was measured (PM's latency,
 * the block tier's, the buffer's hit rate) and answers the offload ratio and data admission for the
 * next one. Deterministic and single-threaded: {@link NhcTuner} feeds it from its own thread.
 *
 * <ul>
 *   <li><b>State 1, classic caching</b> ({@link State#CLASSIC}): offload ratio 0, data admission on,
 *       until the hit rate is stable (changed by less than {@link #STABLE} since the previous interval)
 *       <em>and</em> PM is the bottleneck (its latency above the block tier's by more than
 *       {@link #THETA}) in {@link #BOTTLENECK_INTERVALS} intervals in a row: a saturated PM stays
 *       saturated, while a burst (a batch of PM writes) fills its queue for one interval. Then state 2
 *       starts at one step, with data admission off.</li>
 *   <li><b>State 2, offloading</b> ({@link State#OFFLOADING}): the ratio moves one {@link #STEP} (2%) a
 *       interval toward the point where PM and the block tier serve reads equally fast: up while PM's
 *       latency is the higher by more than {@link #THETA}, down while the block tier's is, held
 *       between. Back to state 1 when the ratio returns to 0 (the paper's {@code la == 1.0}: nothing is
 *       gained by sending load around PM, so improving the hit rate is worth more) or when the hit rate
 *       drops below {@code (1 - }{@link #DROP}{@code )} of its value when state 2 began (the working
 *       set moved, and classic caching must bring it into PM first).</li>
 * </ul>
 *
 * <p><b>Why latency decides each step, not a three-point probe.</b> The paper measures its target
 * metric at {@code la - step}, {@code la} and {@code la + step}, one interval each, and moves to the
 * best. Here the two devices' latencies are measured directly every interval ({@link NhcProbe}), and their difference says which way the throughput gradient
 * points with no probing: while PM answers slower than the block tier, moving a read from PM to the
 * block tier shortens it. One interval per step instead of three, and no interval spent on a point
 * known to be worse, which the paper's noisy 5 ms probes cannot avoid.
 *
 * <p><b>Why state 2 waits for PM to be the bottleneck.</b> The paper enters it whenever the hit rate is
 * stable and lets the probes find {@code la = 1} when nothing is to be gained, which costs a few
 * intervals without data admission each time. Entering only when PM is measured slower than the
 * block tier means a store whose PM keeps up never stops admitting and never offloads a read: under
 * low load non-hierarchical caching is classic caching exactly.
 */
final class NhcController {
    /** Steps of the offload ratio from 0 to 1. */
    static final int STEPS = 50;
    /** One step of the offload ratio: 2%, the paper's. */
    static final double STEP = 1.0 / STEPS;
    /** Absolute change of the hit rate between intervals below which it counts as stable. */
    static final double STABLE = 0.01;
    /** The paper's {@code a}: a hit rate this share below state 2's starting one sends it back to state 1. */
    static final double DROP = 0.1;
    /** Relative latency difference under which PM and the block tier count as balanced (MOST's theta). */
    static final double THETA = 0.05;
    /** Consecutive intervals PM must be the bottleneck in before state 2 begins. */
    static final int BOTTLENECK_INTERVALS = 2;

    /** The scheduler's two states. */
    enum State {
        /** State 1: classic caching, improving the hit rate. */
        CLASSIC,
        /** State 2: no data admission, a share of reads sent to the block tier. */
        OFFLOADING
    }

    private State state = State.CLASSIC;
    private int steps;
    private double lastHitRate = Double.NaN;
    private double startHitRate;
    private int bottleneckIntervals;

    /**
     * Takes one interval's measurements and decides the next interval's ratio and data admission.
     *
     * @param pmLatencyNanos    mean latency a PM read hit saw in the interval, NaN if unknown
     * @param blockLatencyNanos mean latency of a block-tier page read, NaN if none was ever measured
     * @param hitRate           share of the interval's accesses that found their page buffered, NaN
     *                          if there were too few to tell
     */
    void observe(double pmLatencyNanos, double blockLatencyNanos, double hitRate) {
        if (state == State.CLASSIC) {
            boolean stable = hitRate > 0 && Math.abs(hitRate - lastHitRate) < STABLE; // false if either is NaN
            lastHitRate = hitRate;
            bottleneckIntervals = slower(pmLatencyNanos, blockLatencyNanos) ? bottleneckIntervals + 1 : 0;
            if (stable && bottleneckIntervals >= BOTTLENECK_INTERVALS) {
                state = State.OFFLOADING;
                startHitRate = hitRate;
                steps = 1;
            }
            return;
        }
        if (hitRate < (1 - DROP) * startHitRate) {
            classicCaching();
            return;
        }
        if (slower(pmLatencyNanos, blockLatencyNanos)) {
            steps = Math.min(STEPS, steps + 1);
        } else if (slower(blockLatencyNanos, pmLatencyNanos)) {
            steps--;
            if (steps == 0) {
                classicCaching();
            }
        }
    }

    /** Whether {@code a} is above {@code b} by more than {@link #THETA} (false if either is unknown). */
    private static boolean slower(double a, double b) {
        return a > b * (1 + THETA);
    }

    private void classicCaching() {
        state = State.CLASSIC;
        steps = 0;
        lastHitRate = Double.NaN;
        bottleneckIntervals = 0;
    }

    /** The share of reads of clean PM-resident pages to send to the block tier, a multiple of {@link #STEP}. */
    double offloadRatio() {
        return steps == STEPS ? 1.0 : steps * STEP;
    }

    /** Whether read misses and clean evictions from DRAM may be installed in PM. */
    boolean admitsData() {
        return state == State.CLASSIC;
    }

    State state() {
        return state;
    }
}
