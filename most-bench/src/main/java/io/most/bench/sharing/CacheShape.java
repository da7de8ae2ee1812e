package io.most.bench.sharing;

import io.most.cache.CacheConfig;

/**
 * The geometry of one tenant's cache, chosen so that its requests reach PM the way a PM cache's do
 * (thesis §5.3: a warmed cache, hit ratio above 99%, the working set in PM): 8 KiB bucket pages with
 * items up to 4.5 KiB in them, three times the buckets the items need (a hashed bucket overflows to
 * the flash regions when full), PM frames for every bucket page and the private copies writes make,
 * and the least DRAM the cache runs with (16 frames, no item front), so a get reads its bucket page
 * in PM. Items larger than a bucket's limit (Twitter's C2) live in regions on the flash device.
 *
 * @param keys           keys loaded
 * @param smallItemBytes bucket pages
 * @param pmBytes        PM frames
 * @param largeItemBytes regions
 * @param regionSize     bytes per region
 */
record CacheShape(long keys, long smallItemBytes, long pmBytes, long largeItemBytes, int regionSize) {
    static final int PAGE = 8192;
    /** Key + value + item header bytes up to which an item lives in a bucket page: a 4 KiB value with its key. */
    static final int BUCKET_ITEM_LIMIT = 4096 + 512;
    /** What a bucket page holds besides items, and each item besides key and value (both generous). */
    static final int PAGE_OVERHEAD = 64;
    static final int ITEM_OVERHEAD = 32;
    static final int BUCKET_SLACK = 3;
    static final int DRAM_FRAMES = 16;
    static final long MIB = 1 << 20;

    static CacheShape of(TenantMix mix, long keys) {
        long item = mix.itemBytes() + ITEM_OVERHEAD;
        boolean large = item > BUCKET_ITEM_LIMIT;
        long perPage = large ? 1 : Math.max(1, (PAGE - PAGE_OVERHEAD) / item);
        long buckets = large ? DRAM_FRAMES : Math.max(DRAM_FRAMES, ceil(keys * BUCKET_SLACK, perPage));
        int region = large ? (int) Math.min(64 * MIB, Math.max(MIB, Long.highestOneBit(item * 4) * 2)) : 256 * 1024;
        long regionBytes = large ? 2 * keys * item : keys * item / 2; // the items, or the overflow
        long regions = Math.max(4, ceil(regionBytes, region));
        long pmFrames = buckets + buckets / 2 + 64 + 1;
        return new CacheShape(keys, buckets * PAGE, pmFrames * PAGE, regions * region, region);
    }

    /** {@code builder} with this geometry. */
    CacheConfig.Builder configure(CacheConfig.Builder builder) {
        return builder.pageSize(PAGE).dramBytes((long) DRAM_FRAMES * PAGE).smallItemFrontBytes(0).pmBytes(pmBytes)
                .smallItemBytes(smallItemBytes).largeItemBytes(largeItemBytes).regionSize(regionSize)
                .largeItemThreshold(BUCKET_ITEM_LIMIT);
    }

    /** Flash bytes of the cache's two spaces, each rounded up to the 1 MiB a space starts on. */
    long flashBytes() {
        CacheConfig c = configure(CacheConfig.builder().directory(java.nio.file.Path.of("."))).build();
        return ceil(c.smallItemDeviceBytes(), MIB) * MIB + ceil(c.largeItemDeviceBytes(), MIB) * MIB;
    }

    private static long ceil(long a, long b) {
        return (a + b - 1) / b;
    }
}
