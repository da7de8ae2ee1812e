package io.most.tier.policy;

import io.most.errors.ConfigurationException;
import java.util.Arrays;

/**
 * Whether a heat difference between two segments is worth a migration: the guard every policy that
 * promotes or swaps applies before displacing one segment for another, so that segments whose heat
 * differs by noise alone stay where they are.
 *
 * <p>The volume's heat counters are HeMem's: small (a hot segment tops out near the cooling
 * threshold of 18) and halved at every cooling tick, so two segments of equal access rate routinely
 * read 6 and 14. Ranking 32 candidates against 32 victims then always finds a pair that looks
 * different. Three defences:
 *
 * <ul>
 *   <li><b>Smoothed heat.</b> Once per optimizer interval ({@link #observe}) each segment's heat is
 *       folded into a moving average with weight {@code smoothing} (default 0.1: about ten intervals,
 *       2 s). Noise averages out; a real hot set keeps its lead and crosses the margin within two or
 *       three intervals of appearing.</li>
 *   <li><b>Margin.</b> A candidate displaces a victim only if its smoothed heat is at least
 *       {@code (1 + relativeMargin) · victim + minimumMargin} (defaults 0.5 and 4).</li>
 *   <li><b>Residency.</b> A segment that moved stays put for {@code minResidency} intervals (default
 *       25, 5 s at 200 ms), as candidate or as victim, so that no pair can swap back and forth
 *       within the time its heat needs to settle.</li>
 * </ul>
 *
 * <p>Memory: 8 bytes per segment (smoothed heat, interval of the last move), on top of the volume's
 * metadata. Not thread-safe: it lives on the volume's migration thread ({@code optimize}) only.
 */
final class Hysteresis {
    private final Settings settings;
    private float[] smoothed = new float[0];
    /** The interval of each segment's last move; an int lasts 13 years of 200 ms intervals. */
    private int[] lastMove = new int[0];
    private int interval;

    /**
     * @param relativeMargin how much hotter, relatively, a candidate must be than its victim
     * @param minimumMargin  how much hotter, in heat counts, at least
     * @param smoothing      weight of the newest interval's heat in the moving average, within (0, 1]
     * @param minResidency   optimizer intervals a moved segment stays where it went
     */
    record Settings(double relativeMargin, int minimumMargin, double smoothing, int minResidency) {
        Settings {
            if (!(relativeMargin >= 0) || minimumMargin < 0 || !(smoothing > 0 && smoothing <= 1) || minResidency < 0) {
                throw new ConfigurationException("hysteresis settings out of range: need relativeMargin >= 0,"
                        + " minimumMargin >= 0, 0 < smoothing <= 1, minResidency >= 0; got " + this);
            }
        }

        static Settings defaults() {
            return new Settings(0.5, 4, 0.1, 25);
        }

        /** No guard at all: raw heat, any difference, no residency (for the paper-exact comparison). */
        static Settings none() {
            return new Settings(0, 0, 1, 0);
        }
    }

    Hysteresis(Settings settings) {
        this.settings = settings;
    }

    /** Starts an optimizer interval: folds every segment's current heat into its average. */
    void observe(PolicyContext context) {
        int n = context.segmentCount();
        if (smoothed.length != n) {
            smoothed = new float[n];
            lastMove = new int[n];
            Arrays.fill(smoothed, Float.NaN);
            Arrays.fill(lastMove, Integer.MIN_VALUE / 2);
        }
        interval++;
        float w = (float) settings.smoothing();
        for (int s = 0; s < n; s++) {
            int heat = context.heat(s);
            float old = smoothed[s];
            smoothed[s] = Float.isNaN(old) ? heat : old + w * (heat - old);
        }
    }

    /** The smoothed heat of {@code segment} as of the last {@link #observe}. */
    double heat(int segment) {
        return segment < smoothed.length && !Float.isNaN(smoothed[segment]) ? smoothed[segment] : 0;
    }

    /** Whether {@code candidate} is hotter than {@code victim} by more than noise. */
    boolean clearlyHotter(int candidate, int victim) {
        return heat(candidate) >= (1 + settings.relativeMargin()) * heat(victim) + settings.minimumMargin();
    }

    /** Whether {@code segment} has stayed where it is for at least the minimum residency. */
    boolean settled(int segment) {
        return segment >= lastMove.length || interval - lastMove[segment] >= settings.minResidency();
    }

    /** Records that {@code segment} moved (or was mirrored or unmirrored) in this interval. */
    void moved(int segment) {
        if (segment < lastMove.length) {
            lastMove[segment] = interval;
        }
    }
}
