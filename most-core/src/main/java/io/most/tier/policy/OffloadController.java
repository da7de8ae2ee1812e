package io.most.tier.policy;

/**
 * MOST's {@code offloadRatio} controller: moves the ratio so that the two devices' latencies meet,
 * accounting for the lag between a ratio change and the latencies that show it.
 *
 * <p><b>The plant.</b> The error is {@code e = ln(L_P / L_C)}: positive while the performance device
 * is slower, falling as the ratio rises, about linearly near the operating point with a slope
 * {@code G} (log latency ratio per unit of ratio) that depends on the load. A new ratio is seen only
 * after a known lag: it applies to the next interval's requests, the device queues follow it with a
 * time constant of queue depth / service rate (by Little's law, the requests' own latency), and the
 * volume smooths each interval's latency with an EWMA of weight {@code α}. A controller that ignores
 * this lag keeps stepping while its earlier steps are still on their way and overshoots: steps doubling
 * while the ratio kept moving swung by ±0.15 for seconds after a load change.
 *
 * <p><b>The control law</b> is a Smith predictor. The controller runs the known lag on its own ratio
 * to know the ratio the current measurement reflects ({@code seen}); the change not yet seen,
 * {@code ratio − seen}, will still lower the error by about {@code Ĝ · (ratio − seen)}, so it acts on
 * the predicted error {@code e − Ĝ · (ratio − seen)}: zero within the dead band {@code ln(1+θ)}, else
 * the ratio moves by {@code K · e_pred / Ĝ} ({@code K = 0.7}: closes most of the predicted gap in
 * one interval, damped so that an error in {@code Ĝ} does not overshoot), at most {@code maxStep}.
 * {@code Ĝ} starts at {@code ln(1+θ) / ratioStep} (the gain the paper's step implies) and is
 * re-estimated from the plant's response each time the seen ratio has moved by 0.1: the change of
 * {@code e} over the change of the seen ratio, geometrically averaged with the old value, within
 * [0.5, 20]; a response of the wrong sign (the load changed meanwhile) is ignored, and no response at
 * all (within the dead band: nothing is mirrored yet, so the ratio moves nothing) halves it, so that the
 * ratio crosses to its maximum, where mirroring starts, in about as many intervals as it would without
 * the lag floor below.
 *
 * <p><b>The lag is taken long.</b> The queue time constant the volume passes, the requests' latency over
 * the interval, is a few hundredths of an interval, but on the emulated devices the latencies follow
 * the ratio more slowly than that: with that time constant alone, on {@code most-burst} at 1.3x, the ratio
 * reached its level in 1.2-2.2 s and stayed within ±0.1 only after 3.4-4.4 s, i.e. the predictor counted
 * steps as shown that were still on their way and overshot. The lag model therefore assumes a queue time constant of at least
 * {@value #MIN_QUEUE_INTERVALS} intervals. The error is lopsided, which is why a floor rather than a
 * fit: on the simulated plant of {@code OffloadControllerTest} a lag taken longer than the plant's only
 * slows the approach (an actual lag of 0.01 intervals taken as 3 still comes within 0.07 of the
 * operating point in 10 intervals), while one taken one interval too short already overshoots out of
 * the ±0.1 band (4 taken as 3). With
 * the floor the controller settles on plants whose lag it is not told up to
 * {@value #MIN_QUEUE_INTERVALS} intervals; longer lags still swing. (Fitting the lag online from the
 * error's response, by a bank of lag models, picked wrong lags within the 10 intervals it has after a
 * load change, and then the gain estimate went wrong with it.)
 *
 * <p><b>The step is bisected at each crossing.</b> The {@code interval_timeline} of {@code run --workload
 * most-burst --hierarchy optane-nvme --policies most,most-paper --intensity 1.3 --size 256m --threads 96
 * --warmup 30s --duration 60s --seed 42} (2026-11-24), with each EWMA turned back into its interval's mean, shows another plant than the linear lagged one
 * above: at the peak the open loop is behind, all driver threads are queued, and the latencies do not
 * move at all while the capacity device has room (ratio 0 to ~0.6: 3.4 ms against its unloaded
 * 1.65 ms); just past the operating point the whole queue moves to the capacity device within one
 * interval (0.8: 1.0 ms against 5.9 ms). The queue split integrates {@code ratio − r*}, so the plant is an
 * integrator with a very high gain near {@code r*} and none away from it, seen one interval after the
 * ratio was set; an integrating step on it swings for good (3.4-4.2 s before staying within ±0.1). So:
 * <ul>
 *   <li>the error is taken from the interval's own means, {@code (avg − (1−α)·previous avg) / α}: the EWMA's
 *       lag is known exactly and is undone, so a crossing shows one interval after it happened;</li>
 *   <li>each step is bounded, and the bound halves whenever the error's sign turns against the last move
 *       (the operating point lies within that move: bisection, down to {@value #MIN_BOUND}), and doubles
 *       (up to {@code maxStep}) after two more moves the same way that did not shrink the error, or after
 *       {@value #LONG_RUN} that did (the operating point drifts as the backlog drains: 0.52 to 0.76 within
 *       one burst in the trace). Doubling after any two moves kept a limit cycle of ±0.08 on the
 *       fitted plant and of ±0.15-0.2 on the emulated pair, because the moves made while an earlier one was
 *       still on its way count as "the same way"; an error that shrinks says the operating point is being
 *       approached, where a larger step only overshoots it. Once the error has changed sign
 *       within the current load level, only {@value #LONG_RUN} moves the same way double the bound. Past a
 *       crossing, an error that keeps growing is the Optane's queue at its knee still filling or draining (it
 *       integrates the excess load and shows the crossing several intervals late), not an operating point far
 *       away; doubling there made the ratio swing by ±0.1-0.2 around it. On {@code most-burst} at 1.3x (8
 *       runs each, interleaved, 2026-11-25) 21 of 24 rises settled within 2 s, against 19 of 24 without
 *       the rule: within the runs' noise, kept because it removes the overshoot the timelines show.</li>
 * </ul>
 * A load step voids the bracket: when the requests served in an interval differ by {@value #LOAD_STEP}x or
 * more from the current load level's (their average since the last step; {@link #served}), the operating
 * point has moved far, so the bound returns to {@code maxStep} at once (without it, after a drop from the
 * peak, bounds bisected down to 0.02-0.04 at the peak took 1.4-2.0 s to bring the ratio from 0.7 to 0), and
 * the plant gain to its initial value (the gain depends on the load).
 *
 * <p><b>Load levels are remembered</b> ({@link LoadLevels}): bursty load returns to the same
 * few levels, each with its own operating ratio and plant gain. A level that lasted
 * {@value #MIN_LEVEL_INTERVALS} intervals or more (shorter ones are transients, such as a cold start) is
 * kept with its ratio, averaged over its last second, and its gain. A step to a kept level sets both at once
 * and the bound to a quarter of {@code maxStep}; the update in that interval only observes, as its
 * measurement predates the jump. A step to a new level starts from the initial gain. On {@code most-burst}
 * a drop takes one interval, and a burst starts at the previous burst's operating point, where a search
 * takes five intervals and builds a backlog. The kept gain matters on the emulated pair: without it
 * the ratio swung by ±0.12-0.15 after the jump (2 of 9 rises within ±0.1 from 2 s on, against 4 of 9). It
 * costs the first burst after a long peak: that level's ratio (0.1-0.3, the backlog drained) is far below a
 * burst's, and its high gain (15-17) makes the climb from there take 1.5 s.
 *
 * <p><b>A rise is answered within the interval</b> ({@link #rise}): the control thread looks at the
 * requests served three times between two updates, and a rate that is a load step up to a kept level
 * starts that level at once. Otherwise a burst meets the low phase's ratio (0) for 200-400 ms, and the
 * performance device's overflow becomes a backlog that the burst drains at the pair's ceiling. On
 * {@code most-burst} at 1.3x (five runs with and five without, interleaved, 2026-11-25) the median of the runs' mean latencies fell
 * from 92 to 28 ms, of their p50s from 1.21 to 0.97 ms and of their p99s from 1.1 to 0.23 s; the rises
 * settled no sooner (7 of 15 within 2 s, against 9 of 15).
 *
 * <p>On the plant fitted to the trace ({@code BackloggedPlant}, {@code BurstSettlingTest}) the ratio is
 * within ±0.1 of its operating point from 2 s after each change, with more requests served and a lower mean
 * latency than the same law without bisection. The Smith predictor and the lag floor stay, for the linear lagged plants
 * of {@code OffloadControllerTest}.
 *
 * <p>Not thread-safe: it runs on the volume's control thread ({@code tune}) only.
 */
final class OffloadController {
    /** Share of the predicted gap closed per interval. */
    static final double GAIN = 0.7;
    private static final double MIN_PLANT_GAIN = 0.5;
    private static final double MAX_PLANT_GAIN = 20;
    /** Seen-ratio change after which the plant gain is measured again. */
    private static final double ESTIMATE_SPAN = 0.1;
    /** Largest error acted on: a latency ratio of e^3 (20x), so that an unmeasured device is not infinite. */
    private static final double MAX_ERROR = 3;
    /** Shortest queue time constant the lag model assumes, in intervals (see the class comment). */
    static final double MIN_QUEUE_INTERVALS = 3;
    /** Smallest bound on a step: bisection stops at the resolution the ±0.1 target needs. */
    private static final double MIN_BOUND = 0.02;
    /** Change of the requests served per interval that counts as a load step (the bench's bursts: 4x). */
    static final double LOAD_STEP = 2;
    /** Weight of the newest interval in a load level's served requests and operating ratio (~1 s at 200 ms). */
    private static final double LEVEL_WEIGHT = 0.3;
    /** Intervals a load level must last to be remembered (shorter ones are transients, e.g. a cold start). */
    private static final int MIN_LEVEL_INTERVALS = 5;
    /** The bound after a jump to a kept level's ratio is {@code maxStep} over this: it starts near its operating point. */
    private static final double JUMP_BOUND = 4;
    /** Moves the same way after which the bound doubles even while the error shrinks (a far operating point). */
    private static final int LONG_RUN = 5;

    private final double deadBand;
    private final double maxStep;
    private final double initialGain;
    private double plantGain;
    private double ratio;
    /** The ratio as the device queues carry it, and as the latency average shows it. */
    private double queued;
    private double seen;
    private double referenceError = Double.NaN;
    private double referenceSeen;
    /** Whether the bound on each step is bisected at each crossing of the operating point. */
    private final boolean bisect;
    /** The volume's averages at the previous interval (NaN before the first), to recover the interval's means. */
    private double previousLp = Double.NaN;
    private double previousLc = Double.NaN;
    /** The current bound on a step, and the direction and run of the last moves. */
    private double bound;
    private int lastDirection;
    private int run;
    /** The current load level: requests served per interval, averaged since the last load step (0: none yet). */
    private double levelServed;
    /** The ratio averaged over the current load level's intervals: its operating point so far. */
    private double levelRatio;
    /** Load levels seen before and their operating ratios, for a return to one of them ({@link #served}). */
    private final LoadLevels levels = new LoadLevels();
    /** Set by a jump to a known level's ratio: the coming update only observes (its measurement predates it). */
    private boolean jumped;
    /** Whether the plant gain is a kept level's, not yet confirmed by a crossing of the operating point. */
    private boolean recalled;
    /** Intervals since the current load level began (its first is the one that showed the step). */
    private int levelIntervals;
    /** The error of the previous interval (NaN before the first), to tell whether the moves close in. */
    private double previousError = Double.NaN;
    /** Whether the error has changed sign since the current load level began: its operating point is bracketed. */
    private boolean bracketed;

    /**
     * @param theta     relative latency difference treated as balanced
     * @param ratioStep the paper's fixed step, which sets the initial plant gain
     * @param maxStep   largest change of the ratio per interval
     */
    OffloadController(double theta, double ratioStep, double maxStep) {
        this(theta, ratioStep, maxStep, true);
    }

    /**
     * @param bisect false: the Smith predictor alone (on the volume's averages, the step bounded
     *               by {@code maxStep} only), kept as the control of {@code BurstSettlingTest}
     */
    OffloadController(double theta, double ratioStep, double maxStep, boolean bisect) {
        this.bisect = bisect;
        this.bound = maxStep;
        this.deadBand = Math.log1p(theta);
        this.maxStep = maxStep;
        this.initialGain = Math.clamp(deadBand / ratioStep, MIN_PLANT_GAIN, MAX_PLANT_GAIN);
        this.plantGain = initialGain;
    }

    /**
     * The requests both devices served in the interval about to be {@linkplain #update updated} (0: not
     * counted). A change by {@value #LOAD_STEP}x or more from the current load level's is a load step
     * ({@link #startLevel}); see the class comment.
     */
    void served(long requests) {
        if (!bisect || requests <= 0) {
            return;
        }
        if (levelServed > 0 && Math.max(requests, levelServed) >= LOAD_STEP * Math.min(requests, levelServed)) {
            startLevel(requests);
        } else {
            levelServed = levelServed > 0 ? levelServed + LEVEL_WEIGHT * (requests - levelServed) : requests;
        }
        levelIntervals++;
    }

    /**
     * A look within the interval: {@code requests}, the requests served so far taken over a whole interval,
     * is a load step up from the current level to a kept one (see {@link #served}). Then the controller
     * starts that level now, with its ratio ({@link #ratio()}), and answers true; the next {@link #served}
     * sees the same level. Not for drops (see {@code MostPolicy.watch}).
     */
    boolean rise(double requests) {
        if (!bisect || !(levelServed > 0) || requests < LOAD_STEP * levelServed || levels.near(requests) == null) {
            return false;
        }
        startLevel(requests);
        return true;
    }

    /** The current ratio. */
    double ratio() {
        return ratio;
    }

    /**
     * A load step to {@code requests} per interval: the level left is kept if it lasted; the bracket is void;
     * a kept level near the new one lends its ratio and gain at once (a jump), else the bound and the gain
     * start afresh.
     */
    private void startLevel(double requests) {
        if (levelIntervals >= MIN_LEVEL_INTERVALS) {
            levels.remember(new LoadLevels.Level(levelServed, levelRatio, plantGain));
        }
        LoadLevels.Level known = levels.near(requests);
        jumped = known != null;
        recalled = jumped;
        if (jumped) {
            ratio = known.ratio();
        }
        plantGain = jumped ? known.gain() : initialGain;
        bound = jumped ? maxStep / JUMP_BOUND : maxStep;
        lastDirection = 0;
        run = 0;
        referenceError = Double.NaN;
        levelIntervals = 0;
        bracketed = false;
        levelServed = requests;
        levelRatio = ratio;
    }

    /**
     * One interval: the new ratio within {@code [0, max]}.
     *
     * @param lp              the performance device's latency average
     * @param lc              the capacity device's latency average (0 when it never served: treated as fast)
     * @param max             the largest ratio allowed
     * @param alpha           the weight of the newest interval in those averages
     * @param queueIntervals  the device queues' time constant (queue depth / service rate) in intervals;
     *                        taken as at least {@link #MIN_QUEUE_INTERVALS}
     */
    double update(double lp, double lc, double max, double alpha, double queueIntervals) {
        double mp = bisect ? intervalMean(lp, previousLp, alpha) : lp;
        double mc = bisect ? intervalMean(lc, previousLc, alpha) : lc;
        previousLp = lp;
        previousLc = lc;
        double error = Math.clamp(Math.log(mp / mc), -MAX_ERROR, MAX_ERROR);
        if (jumped) {
            // the measurement is of the interval before the jump; the next one shows the jumped ratio
            jumped = false;
            ratio = Math.min(ratio, max);
            queued = ratio;
            seen = ratio;
            levelRatio = ratio;
            return ratio;
        }
        estimatePlantGain(error, lc > 0);
        double lastError = previousError;
        previousError = error;
        double predicted = error - plantGain * (ratio - seen);
        if (Math.abs(predicted) > deadBand) {
            int direction = predicted > 0 ? 1 : -1;
            if (bisect) {
                if (direction == -lastDirection) {
                    bound = Math.max(MIN_BOUND, bound / 2);
                    run = 0;
                    recalled = false;
                    bracketed = true;
                } else if (direction == lastDirection && ++run >= 2) {
                    boolean closingIn = Math.abs(error) < Math.abs(lastError);
                    if ((!closingIn && !bracketed) || run >= LONG_RUN) {
                        bound = Math.min(maxStep, bound * 2);
                        run = 0;
                    }
                    if (!closingIn && recalled) { // the kept level did not fit: its gain would keep the steps small
                        plantGain = Math.min(plantGain, initialGain);
                        recalled = false;
                    }
                }
            }
            lastDirection = direction;
            double step = Math.clamp(GAIN * predicted / plantGain, -bound, bound);
            ratio = Math.clamp(ratio + step, 0, max);
        }
        ratio = Math.min(ratio, max); // a lowered cap applies at once
        // what the measurement of the coming intervals will reflect: the queues follow the new ratio
        // with their time constant, the average follows the queues with weight alpha
        queued += (1 - Math.exp(-1 / Math.max(queueIntervals, MIN_QUEUE_INTERVALS))) * (ratio - queued);
        seen += (bisect ? 1 : alpha) * (queued - seen);
        levelRatio += LEVEL_WEIGHT * (ratio - levelRatio);
        return ratio;
    }

    /** The interval's own mean behind an average that moved from {@code previous} to {@code average}. */
    private static double intervalMean(double average, double previous, double alpha) {
        if (!(previous > 0) || !(average > 0)) { // none yet, or a device that never served
            return average;
        }
        double mean = (average - (1 - alpha) * previous) / alpha;
        return mean > 0 ? mean : average;
    }

    /** The current estimate of the plant gain {@code Ĝ}. */
    double plantGain() {
        return plantGain;
    }

    private void estimatePlantGain(double error, boolean measured) {
        if (!measured || Double.isNaN(referenceError)) {
            referenceError = error;
            referenceSeen = seen;
            return;
        }
        double moved = seen - referenceSeen;
        if (Math.abs(moved) < ESTIMATE_SPAN) {
            return;
        }
        double g = -(error - referenceError) / moved;
        if (g > 0) {
            plantGain = Math.clamp(Math.sqrt(plantGain * g), MIN_PLANT_GAIN, MAX_PLANT_GAIN);
        } else if (Math.abs(error - referenceError) < deadBand) {
            // no response at all (nothing mirrored yet, so routing moves nothing): steps may be larger
            plantGain = Math.max(MIN_PLANT_GAIN, plantGain / 2);
        }
        referenceError = error;
        referenceSeen = seen;
    }
}
