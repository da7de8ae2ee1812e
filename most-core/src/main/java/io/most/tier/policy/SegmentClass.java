package io.most.tier.policy;

/** Where a logical segment of a {@link io.most.tier.TieredVolume} lives (MOST paper, Figure 1). */
public enum SegmentClass {
    /** Never written: reads return zeros and no device space is used. */
    UNALLOCATED,
    /** One copy, on the performance device. */
    TIERED_PERFORMANCE,
    /** One copy, on the capacity device. */
    TIERED_CAPACITY,
    /** A copy on each device; each subpage is valid on both or on one of them. */
    MIRRORED;

    /** The class of a segment with one copy on {@code tier}. */
    public static SegmentClass tieredOn(Tier tier) {
        return tier == Tier.PERFORMANCE ? TIERED_PERFORMANCE : TIERED_CAPACITY;
    }
}
