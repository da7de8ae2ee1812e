package io.most;

/**
 * How the DRAM buffer pool chooses the page to evict, set with
 * {@link PageStoreConfig.Builder#evictionPolicy(EvictionPolicy)}. Either way a buffer hit takes no
 * lock and writes nothing shared once a page is hot; the policies differ in which pages they keep.
 */
public enum EvictionPolicy {
    /**
     * CLOCK (second chance), as in the Spitfire paper: one reference bit per frame. Cheapest on a
     * miss (no lock), but blind to frequency: a page touched once since the hand last passed is kept
     * like one touched a thousand times, so scans and long-tailed access push hot pages out.
     */
    CLOCK,
    /**
     * S3-FIFO (SOSP '23): new pages enter a small FIFO queue and reach the main queue only if accessed
     * again, pages dropped from the small queue are remembered as ghosts, and main-queue pages are
     * kept for as many sweeps as they earned (up to 3). Keeps a better hot set than CLOCK on skewed and
     * scan-heavy workloads; a load or an eviction takes one short lock. The default.
     */
    S3_FIFO
}
