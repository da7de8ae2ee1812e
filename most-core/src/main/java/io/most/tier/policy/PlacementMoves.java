package io.most.tier.policy;

import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;

/**
 * The placement moves the policies share, so that each policy is only its decisions: which
 * candidates, how many, which way. One instance per policy (it carries the policy's
 * {@link Hysteresis}); the static moves need no state.
 *
 * <ul>
 *   <li>{@link #promote}: move segments up to the performance device, displacing a colder victim
 *       when it is full (HeMem, MOST, BATMAN, Colloid);</li>
 *   <li>{@link #cache}: the same displacement for a cache of mirrored copies (Orthus);</li>
 *   <li>{@link #demote}: move segments down to the capacity device;</li>
 *   <li>{@link #takeByHeat}: the hottest segments until a heat gap is filled, by one rule;</li>
 *   <li>{@link #draw}: route to the capacity device with a probability.</li>
 * </ul>
 *
 * <p>Every displacement and every demotion goes through the {@link Hysteresis}: a victim is displaced
 * only by a candidate clearly hotter than it, and no segment moves again within its minimum
 * residency. Callers must call {@link #observe} once at the start of each {@code optimize}.
 */
final class PlacementMoves {
    /** How many segments one interval ranks (hottest candidates, coldest victims). */
    static final int CANDIDATES = 64;

    private final Hysteresis hysteresis;

    PlacementMoves(Hysteresis.Settings settings) {
        this.hysteresis = new Hysteresis(settings);
    }

    /** Moves with the default hysteresis. */
    PlacementMoves() {
        this(Hysteresis.Settings.defaults());
    }

    /** Starts an optimizer interval (smoothed heat, residency clock). */
    void observe(PolicyContext context) {
        hysteresis.observe(context);
    }

    /** The guard, for policies that compare two segments themselves (MOST's mirrored-class swap). */
    Hysteresis hysteresis() {
        return hysteresis;
    }

    /** The capacity device with probability {@code capacityShare}, else the performance device; drawn per call. */
    static Tier draw(double capacityShare) {
        return ThreadLocalRandom.current().nextDouble() < capacityShare ? Tier.CAPACITY : Tier.PERFORMANCE;
    }

    /**
     * Moves {@code candidates} (hottest first) to the performance device. When it is full, the
     * coldest tiered performance segment is demoted first, only if the candidate is clearly hotter
     * (see {@link Hysteresis}) and, with {@code hotOnly}, only if the victim is not hot itself.
     * Stops at the first candidate that cannot move (budget spent, no victim, not clearly hotter).
     *
     * @param hotOnly consider only hot candidates and never displace a hot victim (classic tiering:
     *                demoting a merely colder hot segment thrashes when the hot set outgrows the device)
     * @return how many were promoted
     */
    int promote(PolicyContext context, int[] candidates, boolean hotOnly) {
        return promote(context, candidates, hotOnly, segment -> context.move(segment, Tier.PERFORMANCE));
    }

    /** {@link #promote(PolicyContext, int[], boolean)} with {@code place} putting each candidate up. */
    int promote(PolicyContext context, int[] candidates, boolean hotOnly, IntPredicate place) {
        return displace(context, candidates, hotOnly, hotOnly, SegmentClass.TIERED_PERFORMANCE, Tier.PERFORMANCE,
                victim -> context.move(victim, Tier.CAPACITY), place);
    }

    /**
     * Caches hot tiered capacity {@code candidates} (hottest first) by mirroring them onto the
     * performance device; when it is full, the coldest cached segment is evicted (unmirrored, keeping
     * the capacity copy) if the candidate is clearly hotter. Stops at the first candidate that is not
     * hot or cannot be cached.
     *
     * @return how many were cached
     */
    int cache(PolicyContext context, int[] candidates) {
        return displace(context, candidates, true, false, SegmentClass.MIRRORED, Tier.PERFORMANCE,
                victim -> context.unmirror(victim, Tier.CAPACITY), context::mirror);
    }

    /**
     * The displacement loop behind {@link #promote} and {@link #cache}: {@code evict} frees room on
     * {@code into} by moving a victim of {@code victimClass} away, {@code place} puts a candidate there;
     * each reports whether it happened.
     */
    private int displace(PolicyContext context, int[] candidates, boolean hotCandidatesOnly, boolean protectHotVictims,
                         SegmentClass victimClass, Tier into, IntPredicate evict, IntPredicate place) {
        int[] victims = null;
        int v = 0;
        int placed = 0;
        for (int segment : candidates) {
            if (hotCandidatesOnly && !context.isHot(segment)) {
                break;
            }
            if (!hysteresis.settled(segment)) {
                continue; // moved recently: let its heat settle before it moves again
            }
            if (context.freeSlots(into) == 0) {
                if (victims == null) {
                    victims = context.coldest(victimClass, candidates.length);
                }
                while (v < victims.length && !hysteresis.settled(victims[v])) {
                    v++;
                }
                if (v >= victims.length) {
                    break;
                }
                int cold = victims[v];
                if ((protectHotVictims && context.isHot(cold)) || !hysteresis.clearlyHotter(segment, cold)
                        || !evict.test(cold)) {
                    break;
                }
                v++;
                hysteresis.moved(cold);
            }
            if (!place.test(segment)) {
                break;
            }
            hysteresis.moved(segment);
            placed++;
        }
        return placed;
    }

    /**
     * Moves {@code segments} to the capacity device in order, skipping those within their minimum
     * residency, all together ({@link PolicyContext#moveAll}); stops when the budget or the room is spent.
     *
     * @return how many were demoted
     */
    int demote(PolicyContext context, int[] segments) {
        int[] settled = Arrays.stream(segments).filter(hysteresis::settled).toArray();
        boolean[] moved = context.moveAll(settled, Tier.CAPACITY);
        int demoted = 0;
        for (int i = 0; i < settled.length; i++) {
            if (moved[i]) {
                hysteresis.moved(settled[i]);
                demoted++;
            }
        }
        return demoted;
    }

    /**
     * The rule for "the hottest segments until a heat gap is filled": {@code candidates} are taken in
     * their order (hottest first) while their summed {@code score} stays within {@code gap}, and the
     * first is taken even if it alone exceeds the gap. Candidates with no heat are never taken (moving
     * them shifts no load).
     *
     * <p>Why a prefix, and at least one: the callers only ask when the imbalance is beyond their
     * tolerance (BATMAN's, Colloid's θ), so moving the hottest is always warranted, and stopping at
     * the first candidate that overshoots keeps the hottest data moving first instead of filling the
     * remainder with many small, cold segments (each costs a whole segment of migration).
     */
    static int[] takeByHeat(int[] candidates, IntUnaryOperator score, double gap) {
        int n = 0;
        double taken = 0;
        while (n < candidates.length) {
            int heat = score.applyAsInt(candidates[n]);
            if (heat <= 0 || (n > 0 && taken + heat > gap)) {
                break;
            }
            taken += heat;
            n++;
        }
        return Arrays.copyOf(candidates, n);
    }

    /** The sum of {@code score} over the segments of class {@code cls}. */
    static long sum(PolicyContext context, SegmentClass cls, IntUnaryOperator score) {
        long sum = 0;
        for (int s = 0, n = context.segmentCount(); s < n; s++) {
            if (context.segmentClass(s) == cls) {
                sum += score.applyAsInt(s);
            }
        }
        return sum;
    }
}
