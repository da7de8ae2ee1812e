package io.most.it;

/**
 * Why tests of this module are disabled: bugs in most-core they found, each with the test that
 * reproduces it deterministically. Remove the {@code @Disabled} of every test naming a bug once it is
 * fixed. Until then, run them with {@code -Djunit.jupiter.conditions.deactivate=org.junit.*DisabledCondition}.
 */
final class KnownBugs {
    /** Reproduced by {@link PmDuplicateFrameTest}. */
    static final String PM_RECOVERY_KEEPS_WRONG_FRAME = "most-core bug: SpitfireBufferManager.recoverPm keeps the"
            + " wrong frame when two valid PM frames hold the same page (a kill between persisting a page's new frame"
            + " and invalidating its old one): the page then stays mapped to a frame it just freed and every read of"
            + " it spins forever in access(), or the newer frame's header is invalidated while it is served, so the"
            + " older version comes back after the next restart, or, if PM evicts the frame first, it is written to the"
            + " block device with its magic cleared and the page reads as corrupt on ssd. Reproduced by"
            + " PmDuplicateFrameTest";

    /** Reproduced by {@link CorruptPageTest#damagedOnlyCopyOfANewestVersionIsReported}. */
    static final String PM_CORRUPTION_ROLLS_BACK_SILENTLY = "most-core bug: SpitfireBufferManager.recoverPm discards"
            + " a PM frame that fails its checksum, and the page silently falls back to the older block-device copy,"
            + " although the frame's intact header (page id, write sequence above the block device's copy) shows that"
            + " it held the only copy of a newer durable version";

    /** Reproduced by {@link StatsAccountingTest#aReadFromTheSsdThroughPmIntoDramIsOneMiss}. */
    static final String MISS_ALSO_COUNTED_AS_PM_HIT = "most-core bug: a read that loads a page from the SSD into PM"
            + " and then copies it to DRAM (Nr and Dr drawn) is counted as a miss by load() and again as a PM hit by"
            + " migrateToDram(), so PageStoreStats.accesses() counts it twice and pmHits overstates PM hits";

    private KnownBugs() {
    }
}
