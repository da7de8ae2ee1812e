package io.most.bench.kv;

import io.most.PageStoreStats;
import io.most.bench.Units;
import java.util.Map;

/**
 * Where a page store served the page accesses of a measured window: its counters at
 * {@link #begin} subtracted from those at {@link #report}. The fields are the ones {@code spitfire-*}
 * runs report (hit ratios per tier, device reads and writes), so engines on a page store compare
 * directly. Thread-safe for one measurement at a time.
 */
final class PageStoreWindow {
    private volatile PageStoreStats baseline;

    /** The window starts at {@code now}. */
    void begin(PageStoreStats now) {
        baseline = now;
    }

    /** Adds the window's accesses, hit ratios and device traffic up to {@code now} to {@code fields}. */
    void report(PageStoreStats now, Map<String, Object> fields) {
        PageStoreStats base = baseline != null ? baseline : now;
        long accesses = now.accesses() - base.accesses();
        fields.put("page_accesses", accesses);
        fields.put("dram_hit_ratio", ratio(now.dramHits() - base.dramHits(), accesses));
        fields.put("pm_hit_ratio", ratio(now.pmHits() - base.pmHits(), accesses));
        fields.put("miss_ratio", ratio(now.misses() - base.misses(), accesses));
        fields.put("ssd_reads", now.ssdReads() - base.ssdReads());
        fields.put("ssd_writes", now.ssdWrites() - base.ssdWrites());
        fields.put("pm_writes", now.pmWrites() - base.pmWrites());
        // non-hierarchical caching (policy orthus-kv): what it sent around PM, and its share at the end
        fields.put("reads_offloaded", now.readsOffloaded() - base.readsOffloaded());
        fields.put("admissions_skipped", now.admissionsSkipped() - base.admissionsSkipped());
        fields.put("offload_ratio_final", now.offloadRatio());
        fields.put("allocated_pages", now.allocatedPages());
    }

    private static double ratio(long part, long whole) {
        return whole == 0 ? Double.NaN : Units.round((double) part / whole, 4);
    }
}
