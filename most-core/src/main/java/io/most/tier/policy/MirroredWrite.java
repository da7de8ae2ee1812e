package io.most.tier.policy;

/**
 * Which copy of a mirrored segment a write updates. Writing one copy balances writes like reads
 * and leaves the other copy's subpages invalid until the cleaner re-mirrors them; writing both
 * (write-through) keeps them clean at the cost of a write on each device.
 */
public enum MirroredWrite {
    PERFORMANCE,
    CAPACITY,
    BOTH;

    /** Writes only the copy on {@code tier}. */
    public static MirroredWrite to(Tier tier) {
        return tier == Tier.PERFORMANCE ? PERFORMANCE : CAPACITY;
    }
}
