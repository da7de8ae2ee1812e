package io.most;

import java.util.Map;

/**
 * A snapshot of a {@link PageStore}'s counters (monotonic since open, except the gauges marked so).
 *
 * @param dramHits           page accesses served from DRAM
 * @param pmHits             page accesses served directly from PM
 * @param misses             page accesses that read the block device
 * @param migrations         pages moved along each path of Spitfire's Figure 3
 * @param pmWrites           page images written into PM: write-backs, writes in PM, and pages
 *                           installed from the block device (what wears PM; Spitfire Fig. 8)
 * @param ssdReads           page reads from the block device
 * @param ssdWrites          page writes to the block device
 * @param optimisticRetries  optimistic reads that had to run again: cursor validations that failed
 *                           ({@link PageCursor#validate}) after a successful begin
 * @param dirtyPages         gauge: DRAM pages newer than their durable copy
 * @param dramFramesUsed     gauge: DRAM frames holding a page
 * @param pmFramesUsed       gauge: PM frames holding a page
 * @param inclusivity        gauge: pages in both DRAM and PM / pages in either (paper section 3.3)
 * @param allocatedPages     gauge: allocated page ids
 * @param policy             gauge: the migration policy in force
 * @param recoveredPmPages   pages whose newest copy was found in PM when the store was opened
 * @param discardedPmFrames  PM frames found torn or superseded when the store was opened
 * @param pmLineUpdates      writes in PM that persisted only the cache lines they changed (a subset
 *                           of {@code pmWrites}; the others persisted the whole page)
 * @param pmWriteBacksForeground dirty PM pages written to the block device by an eviction on a
 *                           caller's path
 * @param pmWriteBacksBackground dirty PM pages written to the block device by the background
 *                           cleaner, ahead of their eviction
 * @param pmWholePageWrites  writes of a PM page that persisted the whole page (a subset of
 *                           {@code pmWrites}: a page loaded from the block device and then written, or a
 *                           line update declined)
 * @param pmWholePageWriteBacks dirty DRAM pages written whole into PM on their eviction or write-back
 *                           (a subset of {@code pmWrites})
 * @param pmInstalls         page images copied into PM clean and not persisted: loads from the block
 *                           device, clean DRAM pages admitted (a subset of {@code pmWrites}; with the
 *                           three above and {@code pmLineUpdates} they make up all of it)
 * @param pmDeltaWrites      line updates that wrote a page over the block device's version of it (a
 *                           page loaded, admitted or written back clean): only the changed lines were
 *                           persisted, the rest is rebuilt from the block device after a power loss (a
 *                           subset of {@code pmLineUpdates})
 * @param pmBytesPersisted   bytes of PM made durable by page writes: changed lines with their redo
 *                           records or descriptors and headers, or whole pages
 * @param readsOffloaded     reads of pages PM held clean that non-hierarchical caching served from the
 *                           block device instead (a subset of {@code misses} and {@code ssdReads}); 0
 *                           with it off ({@link PageStoreConfig#nonHierarchicalCaching()})
 * @param admissionsSkipped  pages the migration policy would have installed in PM (a read miss, a clean
 *                           DRAM eviction) that non-hierarchical caching kept out while PM was the
 *                           bottleneck
 * @param offloadRatio       gauge: the share of reads of clean PM pages sent to the block device now
 * @param pmDataAdmission    gauge: whether pages are admitted into PM now (classic caching), false while
 *                           non-hierarchical caching offloads
 */
public record PageStoreStats(
        long dramHits,
        long pmHits,
        long misses,
        Map<MigrationPath, Long> migrations,
        long pmWrites,
        long ssdReads,
        long ssdWrites,
        long optimisticRetries,
        long dirtyPages,
        long dramFramesUsed,
        long pmFramesUsed,
        double inclusivity,
        long allocatedPages,
        MigrationPolicy policy,
        long recoveredPmPages,
        long discardedPmFrames,
        long pmLineUpdates,
        long pmWriteBacksForeground,
        long pmWriteBacksBackground,
        long pmWholePageWrites,
        long pmWholePageWriteBacks,
        long pmInstalls,
        long pmDeltaWrites,
        long pmBytesPersisted,
        long readsOffloaded,
        long admissionsSkipped,
        double offloadRatio,
        boolean pmDataAdmission) {

    /** Pages moved along {@code path}. */
    public long migrations(MigrationPath path) {
        return migrations.getOrDefault(path, 0L);
    }

    /** All page accesses: hits in DRAM and PM plus misses. */
    public long accesses() {
        return dramHits + pmHits + misses;
    }
}
