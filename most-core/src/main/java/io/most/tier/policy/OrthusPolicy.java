package io.most.tier.policy;


/**
 * Orthus non-hierarchical caching (Wu et al., FAST'21, section 4, Algorithm 1) on the tier SPI. The
 * capacity device holds every segment (new segments are placed there); the performance device is a
 * cache of mirrored copies of hot segments, written through ({@link MirroredWrite#BOTH}) so the
 * capacity copy is never stale.
 *
 * <ul>
 *   <li><b>data_admit</b>: while set, each interval admits (mirrors) the hottest uncached hot segments,
 *       evicting (unmirroring, keeping the capacity copy) colder cached ones when the cache is full —
 *       classic caching.</li>
 *   <li><b>load_admit</b> ({@link #loadAdmit()}): the share of reads of cached data sent to the
 *       <em>capacity</em> device. The paper's {@code la} is the share sent to the cache; this is
 *       {@code 1 − la}, so classic caching is {@code load_admit = 0}.</li>
 *   <li><b>State 1</b> (improve hit rate): data_admit on, load_admit 0, until an interval admits
 *       nothing (the whole hot set is cached, or nothing uncached is clearly hotter than the cache's
 *       coldest, {@link Hysteresis}) and the hit rate (cached share of all heat) changed by less than
 *       1% since the previous interval. <b>State 2</b>: data_admit off;
 *       three-point hill climbing in steps of 2%: load_admit − step, load_admit, load_admit + step are
 *       each measured for one interval, and load_admit moves to the best. The metric is the mean
 *       request latency over both devices weighted by their request counts (device-level
 *       measurement, which section 4.3 allows), lower is better. If the best point is 0 the
 *       scheduler returns to classic caching (state 1), as it does when the hit rate drops below
 *       {@code (1 − a)} of its value at the start of state 2 (a = 0.1).</li>
 * </ul>
 *
 * <p>Simplifications: hits and the hit rate are estimated from segment heat, not counted per request;
 * the paper's 5 ms measurement window is the volume's optimizer interval; writes are write-through
 * (Orthus defaults to write-back: writes go to the cache only and the capacity copy is dirty).
 */
public final class OrthusPolicy implements PlacementPolicy {
    private final PlacementMoves moves = new PlacementMoves();
    private static final double STEP = 0.02;
    private static final double STABLE = 0.01;
    private static final double DROP = 0.1;

    private volatile double loadAdmit;
    private volatile boolean dataAdmit = true;
    private double startHitRate;
    private double lastHitRate = -1;
    /** In state 2: which probe is running (0: centre−step, 1: centre, 2: centre+step). */
    private int probe = -1;
    private double centre;
    private final double[] scores = new double[3];
    private final long[] lastRequests = new long[2];

    @Override
    public String name() {
        return "orthus";
    }

    /** The share of reads of cached data sent to the capacity device. */
    public double loadAdmit() {
        return loadAdmit;
    }

    /** Whether hot segments are being admitted into the cache (state 1). */
    public boolean dataAdmit() {
        return dataAdmit;
    }

    @Override
    public double offloadRatio() {
        return loadAdmit;
    }

    @Override
    public Tier placeNewSegment(int segment) {
        return Tier.CAPACITY;
    }

    @Override
    public Tier routeMirroredRead(int segment) {
        return PlacementMoves.draw(loadAdmit);
    }

    @Override
    public MirroredWrite routeMirroredWrite(int segment) {
        return MirroredWrite.BOTH;
    }

    @Override
    public void optimize(PolicyContext context) {
        moves.observe(context);
        double metric = intervalLatency(context);
        long cached = PlacementMoves.sum(context, SegmentClass.MIRRORED, context::heat);
        long total = cached + PlacementMoves.sum(context, SegmentClass.TIERED_CAPACITY, context::heat)
                + PlacementMoves.sum(context, SegmentClass.TIERED_PERFORMANCE, context::heat);
        double hitRate = total == 0 ? 0 : (double) cached / total;
        if (dataAdmit) {
            // the hit rate counts as stable only once nothing was admitted: while the migration budget
            // admits a few segments per interval, each adds well under 1% and state 1 ended with part
            // of the hot set uncached (4-24 MiB of 25.6 MiB in the reproductions)
            int admitted = moves.cache(context, context.hottest(SegmentClass.TIERED_CAPACITY, PlacementMoves.CANDIDATES));
            boolean stable = admitted == 0 && lastHitRate >= 0 && Math.abs(hitRate - lastHitRate) < STABLE
                    && hitRate > 0;
            lastHitRate = hitRate;
            if (stable) {
                dataAdmit = false;
                startHitRate = hitRate;
                centre = loadAdmit;
                probe = 0;
                loadAdmit = clamp(centre - STEP);
            }
            return;
        }
        if (hitRate < (1 - DROP) * startHitRate) {
            classicCaching();
            return;
        }
        scores[probe] = Double.isNaN(metric) ? Double.POSITIVE_INFINITY : metric;
        if (probe < 2) {
            probe++;
            loadAdmit = clamp(centre + (probe - 1) * STEP);
            return;
        }
        int best = 1;
        if (scores[0] < scores[best]) {
            best = 0;
        }
        if (scores[2] < scores[best]) {
            best = 2;
        }
        centre = clamp(centre + (best - 1) * STEP);
        if (centre <= 0) {
            classicCaching();
            return;
        }
        probe = 0;
        loadAdmit = clamp(centre - STEP);
    }

    private void classicCaching() {
        dataAdmit = true;
        loadAdmit = 0;
        lastHitRate = -1;
        probe = -1;
    }

    private static double clamp(double ratio) {
        return Math.max(0, Math.min(1, Math.round(ratio / STEP) * STEP));
    }

    /** Mean latency of this interval's requests over both devices, weighted by their counts. */
    private double intervalLatency(PolicyContext context) {
        double sum = 0;
        long count = 0;
        for (Tier t : Tier.values()) {
            long r = context.requests(t);
            long n = r - lastRequests[t.ordinal()];
            lastRequests[t.ordinal()] = r;
            double l = context.latencyNanos(t);
            if (n > 0 && !Double.isNaN(l)) {
                sum += n * l;
                count += n;
            }
        }
        return count == 0 ? Double.NaN : sum / count;
    }
}
