package io.most.tier.policy;

/**
 * Decides where a {@link io.most.tier.TieredVolume}'s data lives and which copy serves each request. The volume
 * owns the mechanisms every policy shares — segment map, per-segment hotness with cooling, measured
 * per-device latency, a rate-limited and byte-counting migrator, the subpage cleaner and crash
 * consistency — and asks its policy only for decisions, so that MOST
 * ({@link io.most.tier.policy.MostPolicy}) and the baselines it is compared with (striping, HeMem
 * hotness tiering, BATMAN fixed ratio, Colloid latency-equalising migration, Orthus non-hierarchical
 * caching) differ in nothing but this class.
 *
 * <p><b>Threads.</b> {@link #placeNewSegment}, {@link #routeMirroredRead} and
 * {@link #routeMirroredWrite} run on the I/O path of any caller thread, concurrently: they must be
 * fast, thread-safe and must not block. {@link #tune} runs on the volume's control thread, and
 * {@link #optimize} and {@link #cleaningPriority} on its migration thread, concurrently with each
 * other: state shared between them must be safe to publish (volatile or immutable). Randomised
 * decisions should be drawn per call (for example from {@link java.util.concurrent.ThreadLocalRandom}).
 *
 * <p>A policy instance serves one volume: {@link io.most.tier.TierConfig#policy()} supplies a fresh one per open.
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
     * Routing, every {@link io.most.tier.TierConfig#optimizerInterval()} right after the volume has sampled device
     * latency: adjust knobs such as an offload ratio from {@code context}'s latencies. Must not migrate
     * or block: it runs on schedule even while {@link #optimize} waits for a migration, which is what
     * lets routing follow a load change within an interval. The default does nothing.
     */
    default void tune(PolicyContext context) {
    }

    /**
     * A look between two {@link #tune}s: the volume's control thread calls it three times an interval,
     * {@code elapsed} being the share of the interval since the last {@code tune}
     * (within (0, 1)). For a policy that can tell a load step from the requests served so far
     * ({@link PolicyContext#requests}) and answer it before the interval ends: a rise that waits for the end
     * of the interval builds a backlog for all of it. Same rules as {@code tune}: no migration, no
     * blocking. The default does nothing.
     */
    default void watch(PolicyContext context, double elapsed) {
    }

    /**
     * Migration, after each {@link #tune} unless the previous call is still running (then once, after
     * it): migrate, mirror or unmirror segments through {@code context}. May block on device I/O; the
     * volume's migration budget bounds how much it copies.
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
