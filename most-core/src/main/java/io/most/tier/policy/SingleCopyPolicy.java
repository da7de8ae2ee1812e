package io.most.tier.policy;


/**
 * Base of the baselines that never mirror (striping, HeMem, BATMAN, Colloid): every segment has one
 * copy, so the mirrored-data routes are never consulted; they answer the performance device.
 */
abstract class SingleCopyPolicy implements PlacementPolicy {

    @Override
    public final Tier routeMirroredRead(int segment) {
        return Tier.PERFORMANCE;
    }

    @Override
    public final MirroredWrite routeMirroredWrite(int segment) {
        return MirroredWrite.PERFORMANCE;
    }
}
