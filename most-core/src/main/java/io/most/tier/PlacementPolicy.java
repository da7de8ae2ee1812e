package io.most.tier;

/**
 * Decides where a {@link TieredVolume}'s data lives and which copy serves each request. The volume
 * owns the mechanisms every policy shares — segment map, per-segment hotness with cooling, measured
 * per-device latency, a rate-limited and byte-counting migrator, the subpage cleaner and crash
 * consistency — and asks its policy only for decisions, so that MOST ({@link MostPolicy}) and the
 * baselines it is compared with (striping, HeMem hotness tiering, BATMAN fixed ratio, Colloid
 * latency-equalising migration, Orthus non-hierarchical caching) differ in nothing but this class.
 *
 * <p><b>Threads.</b> {@link #placeNewSegment}, {@link #routeMirroredRead} and
 * {@link #routeMirroredWrite} run on the I/O path of any caller thread, concurrently: they must be
 * fast, thread-safe and must not block. {@link #optimize} and {@link #cleaningPriority} run on the
 * volume's single optimizer thread. Randomised decisions should be drawn per call (for example from
 * {@link java.util.concurrent.ThreadLocalRandom}).
 *
 * <p>A policy instance serves one volume: {@link TierConfig#policy()} supplies a fresh one per open.
 */
public interface PlacementPolicy {

    /** A short name for statistics and reports, e.g. {@code "most"}. */
    String name();

    /**
     * Called once when the volume has opened (and recovered), before any other method. Policies
     * that need shared state on the I/O path keep {@code context}.
     */
    default void attach(PolicyContext context) {
    }

    /**
     * The device that receives the first write to an unallocated segment. If it has no free segment
     * the volume uses the other device, and if neither has, it reclaims mirrored space.
     */
    Tier placeNewSegment(int segment);

    /** Which copy serves a read of subpages that are valid on both devices (one decision per request). */
    Tier routeMirroredRead(int segment);

    /**
     * Which copy a write to a mirrored segment updates (one decision per request). Whole subpages may
     * go anywhere; a partial subpage write always goes to a copy where that subpage is valid.
     */
    MirroredWrite routeMirroredWrite(int segment);

    /**
     * Periodic tuning, every {@link TierConfig#optimizerInterval()} after the volume has sampled device
     * latency: adjust routing, and migrate, mirror or unmirror segments through {@code context}.
     */
    void optimize(PolicyContext context);

    /**
     * How urgently the single-valid subpages of mirrored {@code segment} should be copied to the other
     * device again (higher first); zero or less leaves them alone. The default never cleans.
     */
    default double cleaningPriority(int segment, PolicyContext context) {
        return 0;
    }

    /**
     * The share of mirrored traffic currently sent to the capacity device, for statistics; zero for
     * policies without such a knob.
     */
    default double offloadRatio() {
        return 0;
    }
}
