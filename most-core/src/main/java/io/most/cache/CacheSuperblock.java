package io.most.cache;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.UUID;

/**
 * The cache's identity and state in page 0 of its page store (the page store checksums the page):
 *
 * <pre>
 * [0, 8)   magic "MOSTCACH"          [8, 12)  format version      [12, 16) page size
 * [16, 32) cache id (UUID)            [32, 40) buckets
 * [40, 44) region size (0 = none)     [44, 52) regions
 * [52, 60) oldest live region generation (raised by clear)
 * [60, 68) items in buckets at the last clean close
 * [68, 72) 1 if the cache was closed cleanly, else 0
 * </pre>
 *
 * @param cacheId        the cache's identity, repeated in the large-item device's header
 * @param pageSize       bucket page size
 * @param buckets        bucket pages
 * @param regionSize     bytes per region (0 without large items)
 * @param regions        regions (0 without large items)
 * @param minLiveSeq     regions of an older generation are ignored (cleared)
 * @param smallEntries   items in buckets, valid if {@code clean}
 * @param clean          whether the cache was closed cleanly (no recount needed)
 */
record CacheSuperblock(UUID cacheId, int pageSize, long buckets, int regionSize, long regions, long minLiveSeq,
                       long smallEntries, boolean clean) {
    static final long MAGIC = 0x484341435453_4F4DL; // "MOSTCACH"
    static final int FORMAT_VERSION = 2; // 2: bucket pages with a slot directory (BucketLayout)
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    void writeTo(MemorySegment page) {
        page.set(LONG, 0, MAGIC);
        page.set(INT, 8, FORMAT_VERSION);
        page.set(INT, 12, pageSize);
        page.set(LONG, 16, cacheId.getMostSignificantBits());
        page.set(LONG, 24, cacheId.getLeastSignificantBits());
        page.set(LONG, 32, buckets);
        page.set(INT, 40, regionSize);
        page.set(LONG, 44, regions);
        page.set(LONG, 52, minLiveSeq);
        page.set(LONG, 60, smallEntries);
        page.set(INT, 68, clean ? 1 : 0);
    }

    /**
     * Reads the superblock of {@code page}, checking it against the configured geometry.
     *
     * @throws CacheFormatException if the page is not a cache superblock, of another version, or of
     *                              another geometry
     */
    static CacheSuperblock readFrom(MemorySegment page, CacheConfig config, String file) {
        if (page.get(LONG, 0) != MAGIC) {
            throw new CacheFormatException(file + " is a MOST page store but not a MOST cache's; use another file"
                    + " or delete it to start an empty cache");
        }
        int version = page.get(INT, 8);
        if (version != FORMAT_VERSION) {
            throw new CacheFormatException(file + " has cache format version " + version + "; this version reads "
                    + FORMAT_VERSION + ": open it with the MOST version that wrote it, or delete it");
        }
        CacheSuperblock s = new CacheSuperblock(new UUID(page.get(LONG, 16), page.get(LONG, 24)), page.get(INT, 12),
                page.get(LONG, 32), page.get(INT, 40), page.get(LONG, 44), page.get(LONG, 52), page.get(LONG, 60),
                page.get(INT, 68) == 1);
        int regionSize = config.hasLargeItems() ? config.regionSize() : 0;
        if (s.pageSize != config.pageSize() || s.buckets != config.buckets() || s.regionSize != regionSize
                || s.regions != config.regions()) {
            throw new CacheFormatException(file + " holds a cache of " + s.buckets + " buckets of " + s.pageSize
                    + " bytes and " + s.regions + " regions of " + s.regionSize + " bytes, but the configuration asks"
                    + " for " + config.buckets() + " buckets of " + config.pageSize() + " bytes and "
                    + config.regions() + " regions of " + regionSize + ": reopen with the sizes it was created with,"
                    + " or delete its files");
        }
        return s;
    }

    CacheSuperblock withState(long minLive, long entries, boolean cleanClose) {
        return new CacheSuperblock(cacheId, pageSize, buckets, regionSize, regions, minLive, entries, cleanClose);
    }
}
