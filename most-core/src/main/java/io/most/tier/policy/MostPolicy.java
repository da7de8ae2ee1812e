package io.most.tier.policy;

import io.most.errors.ConfigurationException;
import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;

/**
 * Mirror-Optimized Storage Tiering (Tu et al.): a small, hot mirrored class plus classic tiering,
 * balanced by routing rather than by migration.
 *
 * <ul>
 *   <li><b>Load switch</b> (3.2.1): a read of mirrored data goes to the capacity copy with probability
 *       {@link #offloadRatio()}, drawn per request; writes to mirrored data pick their copy the same way
 *       (3.2.4).</li>
 *   <li><b>Dynamic write allocation</b> (3.2.2): a new segment lands on the capacity device with
 *       probability {@code offloadRatio}.</li>
 *   <li><b>Optimizer</b> (Algorithm 1), every interval, from the latencies the volume measured:
 *       if {@code L_P > (1+θ)·L_C}, raise {@code offloadRatio} by one step; once it is at its
 *       maximum, enlarge the mirrored class with the hottest tiered segments of the performance device
 *       (up to {@code maxMirroredFraction} of all slots, keeping {@code reclaimWatermark} free), and when
 *       the class is full, swap its coldest segment for a tiered one that is hotter by
 *       {@code swapMargin} — migrating only towards the capacity device. If {@code L_P < (1-θ)·L_C},
 *       lower the ratio, and once it is 0 promote hot segments from the capacity device (demoting one
 *       that is no longer hot if the performance device is full, as HeMem does) — migrating only
 *       towards the performance device. While the mirrored class has room, a promotion mirrors
 *       ({@link #promote}). While moving the ratio moves no request (no mirrored segment is
 *       read and no new segment placed) it migrates without waiting for the ratio ({@link #tune}).
 *       Otherwise the devices are balanced and nothing migrates. The
 *       paper's step is a fixed {@code ratioStep}, which needs 10 s to cross from 0 to 1 at 200 ms
 *       intervals ({@code maxRatioStep = ratioStep}, policy {@code most-paper}); here an
 *       {@link OffloadController} moves the ratio by up to {@code maxRatioStep}, compensating the known
 *       lag between a ratio change and the latencies that show it (a Smith predictor), so that the
 *       ratio reaches a new operating point within about two seconds and stays there.</li>
 *   <li><b>Reclaim</b> (3.2.3): while free slots are below {@code reclaimWatermark}, the coldest mirrored
 *       segment gives up a copy (the capacity copy if the performance copy is valid, else the other).</li>
 *   <li><b>Selective cleaning</b> (3.2.4): a mirrored segment's stale subpages are re-mirrored only if
 *       its rewrite distance — reads between two writes, including the reads since the last write — is
 *       at least {@code minRewriteDistance}.</li>
 *   <li><b>Tail latency protection</b> (3.2.5): {@code maxOffloadRatio} below 1 caps the traffic sent to
 *       the capacity copies.</li>
 * </ul>
 */
public final class MostPolicy implements PlacementPolicy {
    private static final double EPSILON = 1e-9;
    /** Requests a {@link #watch} needs to see before it takes their rate for a load step (noise ~10% at 100). */
    private static final long MIN_WATCHED_REQUESTS = 100;

    /** What the latest {@link #tune} asks migration to do. */
    private enum Migration { NONE, TO_CAPACITY, TO_PERFORMANCE }

    private final Settings settings;
    private final PlacementMoves moves = new PlacementMoves();
    private volatile double offloadRatio;
    private volatile Migration migration = Migration.NONE;
    /** The lag-compensated ratio controller; null for the paper's fixed step. Control thread only. */
    private final OffloadController controller;
    /** New segments placed since open (I/O path), and the count the last {@link #tune} saw (control thread). */
    private final LongAdder placements = new LongAdder();
    private long placementsSeen;
    /** Requests both devices had served at the previous {@link #tune}. */
    private long servedSeen;

    /**
     * MOST's tuning knobs.
     *
     * @param theta               relative latency difference treated as equal (paper: 0.05)
     * @param ratioStep           the paper's fixed change of {@code offloadRatio} per interval (0.02); it
     *                            also sets the controller's initial plant gain, {@code ln(1+θ)/ratioStep}
     * @param maxRatioStep        largest change per interval of the lag-compensated controller (default
     *                            0.16); equal to {@code ratioStep}: the paper's fixed step instead
     * @param maxOffloadRatio     cap on {@code offloadRatio}, for tail latency protection (default 1)
     * @param maxMirroredFraction largest mirrored class, as a fraction of all data slots (paper: 0.2)
     * @param reclaimWatermark    free fraction of all data slots below which mirrors are reclaimed
     *                            (paper: 0.025)
     * @param minRewriteDistance  rewrite distance (reads between writes) from which stale subpages are
     *                            cleaned (default 32)
     * @param swapMargin          how much hotter (reads + writes) a tiered segment must be than the
     *                            coldest mirrored one to replace it (default 4: avoids swapping equals)
     */
    public record Settings(double theta, double ratioStep, double maxRatioStep, double maxOffloadRatio,
                           double maxMirroredFraction, double reclaimWatermark, double minRewriteDistance,
                           int swapMargin) {

        public Settings {
            if (!(theta >= 0 && theta < 1) || !(ratioStep > 0 && ratioStep <= 1)
                    || !(maxRatioStep >= ratioStep && maxRatioStep <= 1)
                    || !(maxOffloadRatio >= 0 && maxOffloadRatio <= 1)
                    || !(maxMirroredFraction >= 0 && maxMirroredFraction <= 1)
                    || !(reclaimWatermark >= 0 && reclaimWatermark < 0.5)
                    || !(minRewriteDistance >= 0) || swapMargin < 0) {
                throw new ConfigurationException("MOST settings out of range: need 0 <= theta < 1, 0 < ratioStep <= 1,"
                        + " ratioStep <= maxRatioStep <= 1, maxOffloadRatio and maxMirroredFraction within [0, 1], 0 <= reclaimWatermark < 0.5,"
                        + " minRewriteDistance >= 0, swapMargin >= 0; got " + this);
            }
        }

        /** The paper's values, with steps that grow with the imbalance up to 0.16. */
        public static Settings defaults() {
            return new Settings(0.05, 0.02, 0.16, 1.0, 0.20, 0.025, 32, 4);
        }

        /** The paper's values exactly: a fixed step of 0.02 per interval. */
        public static Settings paper() {
            return defaults().withMaxRatioStep(0.02);
        }

        /** A copy with another largest step per interval. */
        public Settings withMaxRatioStep(double step) {
            return new Settings(theta, ratioStep, step, maxOffloadRatio, maxMirroredFraction, reclaimWatermark,
                    minRewriteDistance, swapMargin);
        }

        /** A copy with another cap on {@code offloadRatio} (tail latency protection, paper 3.2.5). */
        public Settings withMaxOffloadRatio(double max) {
            return new Settings(theta, ratioStep, maxRatioStep, max, maxMirroredFraction, reclaimWatermark,
                    minRewriteDistance, swapMargin);
        }

        /** A copy with another maximum size of the mirrored class. */
        public Settings withMaxMirroredFraction(double fraction) {
            return new Settings(theta, ratioStep, maxRatioStep, maxOffloadRatio, fraction, reclaimWatermark,
                    minRewriteDistance, swapMargin);
        }

        /** A copy with another cleaning threshold. */
        public Settings withMinRewriteDistance(double reads) {
            return new Settings(theta, ratioStep, maxRatioStep, maxOffloadRatio, maxMirroredFraction,
                    reclaimWatermark, reads, swapMargin);
        }
    }

    /** MOST with the default settings. */
    public MostPolicy() {
        this(Settings.defaults());
    }

    public MostPolicy(Settings settings) {
        this.settings = settings;
        this.controller = settings.maxRatioStep() == settings.ratioStep() ? null
                : new OffloadController(settings.theta(), settings.ratioStep(), settings.maxRatioStep());
    }

    public Settings settings() {
        return settings;
    }

    @Override
    public String name() {
        return settings.maxRatioStep() == settings.ratioStep() ? "most-paper" : "most";
    }

    @Override
    public double offloadRatio() {
        return offloadRatio;
    }

    private Tier draw() {
        return PlacementMoves.draw(offloadRatio);
    }

    @Override
    public Tier placeNewSegment(int segment) {
        placements.increment();
        return draw();
    }

    @Override
    public Tier routeMirroredRead(int segment) {
        return draw();
    }

    @Override
    public MirroredWrite routeMirroredWrite(int segment) {
        return MirroredWrite.to(draw());
    }

    @Override
    public double cleaningPriority(int segment, PolicyContext context) {
        double distance = Math.max(context.rewriteDistance(segment), context.readsSinceWrite(segment));
        return distance >= settings.minRewriteDistance() ? distance : 0;
    }

    /**
     * Algorithm 1's routing half: moves {@code offloadRatio} ({@link OffloadController}, or the paper's
     * fixed step for {@code most-paper}) and decides which way migration may go.
     *
     * <p>Algorithm 1 migrates only once the ratio is at its end (1 to mirror more, 0 to promote), because
     * until then routing may still balance the devices. Routing acts on two things: reads and writes of
     * mirrored segments, and where new segments go. With no mirrored segment read (none, or none with
     * heat) and no segment placed since the last interval the ratio moves no request at all, so waiting
     * for it to reach its end only delays the migration that is the one remedy: here it migrates at once. This is the lower level of a stack
     * ({@code reproduce most-three-tiers} at 2.0x, 2026-11-24): its only client, the level above, allocates nothing
     * after the fill, its ratio wandered on noisy latencies (0.65 after 25 s) and it mirrored nothing,
     * leaving the slowest device idle while the middle one was saturated.
     */
    @Override
    public void tune(PolicyContext context) {
        double lp = context.latencyNanos(Tier.PERFORMANCE);
        double lc = context.latencyNanos(Tier.CAPACITY);
        if (Double.isNaN(lp)) {
            return; // nothing measured yet
        }
        if (Double.isNaN(lc)) {
            lc = 0; // the capacity device has served nothing: offloading is how to find out
        }
        double ratio = offloadRatio;
        double max = settings.maxOffloadRatio();
        boolean slowerPerformance = lp > (1 + settings.theta()) * lc;
        boolean slowerCapacity = lp < (1 - settings.theta()) * lc;
        boolean routingActs = routingActs(context);
        Migration next = Migration.NONE;
        if (slowerPerformance && (ratio >= max - EPSILON || !routingActs)) {
            next = Migration.TO_CAPACITY; // routing has done what it can (or can do nothing): mirror more
        } else if (slowerCapacity && (ratio <= EPSILON || !routingActs)) {
            next = Migration.TO_PERFORMANCE;
        }
        if (controller != null) {
            long served = context.requests(Tier.PERFORMANCE) + context.requests(Tier.CAPACITY);
            controller.served(served - servedSeen);
            servedSeen = served;
            offloadRatio = controller.update(lp, lc, max, context.latencyEwmaAlpha(),
                    queueIntervals(context, lp, lc));
        } else if (slowerPerformance || slowerCapacity) {
            offloadRatio = Math.clamp(ratio + (slowerPerformance ? 1 : -1) * settings.ratioStep(), 0, max);
        }
        migration = next;
    }

    /**
     * A load rise within the interval: when the requests served since the last {@link #tune}, taken over the
     * whole interval, are a load step up to a level the controller has run at, the ratio jumps to that
     * level's at once ({@link OffloadController#rise}). Until the next {@code tune} the new load meets the
     * old ratio: at a burst's start that is 0, the performance device takes it all, and what it cannot
     * serve is a backlog that the burst must drain at its ceiling (on {@code most-burst} the ratio then climbed to its
     * maximum and the mirrored class grew mid-burst). Drops wait for {@code tune}: the old ratio at a lower
     * load costs latency for an interval, not a backlog.
     */
    @Override
    public void watch(PolicyContext context, double elapsed) {
        if (controller == null) {
            return;
        }
        long served = context.requests(Tier.PERFORMANCE) + context.requests(Tier.CAPACITY) - servedSeen;
        if (served >= MIN_WATCHED_REQUESTS && controller.rise(served / elapsed)) {
            offloadRatio = Math.min(controller.ratio(), settings.maxOffloadRatio());
        }
    }

    /**
     * Whether moving the ratio moves any request: a segment was placed since the last interval, or a
     * mirrored segment has heat (mirrored segments without any, e.g. mirrored while the data was being
     * written, are copies nobody reads).
     */
    private boolean routingActs(PolicyContext context) {
        long placed = placements.sum();
        boolean placing = placed != placementsSeen;
        placementsSeen = placed;
        if (placing) {
            return true;
        }
        int[] hottest = context.hottest(SegmentClass.MIRRORED, 1);
        return hottest.length > 0 && context.heat(hottest[0]) > 0;
    }

    /**
     * The device queues' time constant in optimizer intervals: queue depth / service rate, which by
     * Little's law is the requests' latency, of the slower device.
     */
    private static double queueIntervals(PolicyContext context, double lp, double lc) {
        return Math.max(lp, lc) / context.optimizerInterval().toNanos();
    }

    /**
     * Algorithm 1's migration half, as the latest {@link #tune} left it: mirror towards the capacity
     * device, promote towards the performance device, or nothing (balanced, or the ratio still moving).
     * Reclaims mirrored space first in any case.
     */
    @Override
    public void optimize(PolicyContext context) {
        moves.observe(context);
        reclaim(context);
        switch (migration) {
            case TO_CAPACITY -> {
                if (!enlargeMirroredClass(context)) {
                    improveMirroredClass(context);
                }
            }
            case TO_PERFORMANCE -> promote(context);
            case NONE -> { }
        }
    }

    /**
     * Mirrors the hottest tiered segments of the performance device that have heat, as many as the
     * mirrored class has room for, together ({@link PolicyContext#mirrorAll}); false if the class is at
     * its maximum.
     */
    private boolean enlargeMirroredClass(PolicyContext context) {
        int[] hottest = context.hottest(SegmentClass.TIERED_PERFORMANCE, PlacementMoves.CANDIDATES);
        int n = 0;
        for (int room = roomForMirrors(context, Tier.CAPACITY); n < Math.min(room, hottest.length)
                && context.heat(hottest[n]) > 0; n++) {
            // the hottest first, while there is room and heat
        }
        boolean[] mirrored = context.mirrorAll(Arrays.copyOf(hottest, n));
        for (int i = 0; i < n; i++) {
            if (mirrored[i]) {
                moves.hysteresis().moved(hottest[i]); // not swapped out again before its heat has settled
            }
        }
        return roomForMirror(context, Tier.CAPACITY);
    }

    /** How many more segments the mirrored class may take whose new copies go to {@code copyTo}: {@link #roomForMirror} for each in turn. */
    private int roomForMirrors(PolicyContext context, Tier copyTo) {
        int total = context.slots(Tier.PERFORMANCE) + context.slots(Tier.CAPACITY);
        int free = context.freeSlots(Tier.PERFORMANCE) + context.freeSlots(Tier.CAPACITY);
        long byFraction = (long) (settings.maxMirroredFraction() * total) - context.mirroredSegments();
        long room = Math.min(byFraction, Math.min(free - reserve(total), context.freeSlots(copyTo)));
        return (int) Math.max(0, room);
    }

    /** Whether the mirrored class may take one more segment whose new copy goes to {@code copyTo}. */
    private boolean roomForMirror(PolicyContext context, Tier copyTo) {
        int total = context.slots(Tier.PERFORMANCE) + context.slots(Tier.CAPACITY);
        int free = context.freeSlots(Tier.PERFORMANCE) + context.freeSlots(Tier.CAPACITY);
        return context.mirroredSegments() < (long) (settings.maxMirroredFraction() * total)
                && free - 1 >= reserve(total) && context.freeSlots(copyTo) > 0;
    }

    /**
     * Swaps the coldest mirrored segments for clearly hotter tiered ones of the performance device:
     * hotter by {@code swapMargin} now and beyond noise ({@link Hysteresis}), and neither moved within
     * the minimum residency.
     */
    private void improveMirroredClass(PolicyContext context) {
        int[] hot = context.hottest(SegmentClass.TIERED_PERFORMANCE, PlacementMoves.CANDIDATES);
        int[] cold = context.coldest(SegmentClass.MIRRORED, PlacementMoves.CANDIDATES);
        Hysteresis guard = moves.hysteresis();
        for (int i = 0; i < Math.min(hot.length, cold.length); i++) {
            if (context.heat(hot[i]) < context.heat(cold[i]) + settings.swapMargin()
                    || !guard.clearlyHotter(hot[i], cold[i]) || !guard.settled(hot[i]) || !guard.settled(cold[i])
                    || context.migrationBudget() < context.segmentBytes()
                    || !context.unmirror(cold[i], context.preferredCopy(cold[i]))) {
                return;
            }
            guard.moved(cold[i]);
            if (!context.mirror(hot[i])) {
                return;
            }
            guard.moved(hot[i]);
        }
    }

    /**
     * Classic tiering towards the performance device, as HeMem does it: hot segments of the capacity
     * device go up, displacing only segments that are no longer hot and clearly colder
     * ({@link Hysteresis}), so that evenly spread heat does not swap segments on noise.
     *
     * <p>While the mirrored class has room, a promoted segment is mirrored rather than moved: the copy
     * up is the one a move writes, and the capacity copy is kept instead of freed. Promotion happens at
     * low load (the ratio at 0, so every read of it still goes to the performance device), and the hot
     * data it pulls up are what the next burst must offload: moved, they had to be mirrored again
     * mid-burst once the ratio reached its maximum, and the operating point fell by 0.4-0.6 while the
     * class grew. Kept, the next burst offloads them at once. On {@code most-burst} at 1.3x
     * (2026-11-25) the first burst's ratio settled within 2 s in 3 of 4 runs against 0
     * of 4 interleaved with them (0 of 8 before in all), and every run's median latency was below every
     * run's before (0.77-0.84 ms against 1.15-1.67 ms).
     */
    private void promote(PolicyContext context) {
        moves.promote(context, context.hottest(SegmentClass.TIERED_CAPACITY, PlacementMoves.CANDIDATES), true,
                segment -> roomForMirror(context, Tier.PERFORMANCE) ? context.mirror(segment)
                        : context.move(segment, Tier.PERFORMANCE));
    }

    /** Gives up copies of the coldest mirrored segments while free space is below the watermark. */
    private void reclaim(PolicyContext context) {
        int total = context.slots(Tier.PERFORMANCE) + context.slots(Tier.CAPACITY);
        int reserve = reserve(total);
        if (context.freeSlots(Tier.PERFORMANCE) + context.freeSlots(Tier.CAPACITY) >= reserve) {
            return;
        }
        for (int segment : context.coldest(SegmentClass.MIRRORED, PlacementMoves.CANDIDATES)) {
            if (context.freeSlots(Tier.PERFORMANCE) + context.freeSlots(Tier.CAPACITY) >= reserve
                    || !context.unmirror(segment, context.preferredCopy(segment))) {
                return;
            }
        }
    }

    private int reserve(int totalSlots) {
        return (int) Math.ceil(settings.reclaimWatermark() * totalSlots);
    }

    @Override
    public String toString() {
        return "MostPolicy[offloadRatio=" + offloadRatio + ", " + settings + "]";
    }
}
