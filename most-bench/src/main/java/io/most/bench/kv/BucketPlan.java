package io.most.bench.kv;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Where the loaded records go in a hashed record store: {@code buckets} primary pages (ids
 * {@code 0 .. buckets - 1}) filled to {@value #LOAD_FACTOR} on average, and the overflow pages of the
 * fuller buckets right after them, so the load writes pages {@code 0 .. pages - 1} in order, each
 * complete. Key {@code k} belongs to bucket {@code fnv1a(k) mod buckets}.
 */
final class BucketPlan {
    /** Average primary page fill: lower wastes pages, higher sends more reads down overflow chains. */
    static final double LOAD_FACTOR = 0.8;

    private final KvDataset data;
    private final RecordPageLayout layout;
    private final long buckets;
    /** Record numbers grouped by bucket: bucket b's are order[first[b] .. first[b + 1]). */
    private final int[] order;
    private final long[] first;
    /** Page id of bucket b's first overflow page; its others follow. */
    private final long[] overflowStart;
    private final long pages;

    private BucketPlan(KvDataset data, RecordPageLayout layout, long buckets, int[] order, long[] first,
                       long[] overflowStart, long pages) {
        this.data = data;
        this.layout = layout;
        this.buckets = buckets;
        this.order = order;
        this.first = first;
        this.overflowStart = overflowStart;
        this.pages = pages;
    }

    /** Primary pages for {@code records} records. */
    static long bucketsFor(long records, RecordPageLayout layout) {
        return Math.max(1, (long) Math.ceil(records / (layout.slotsPerPage() * LOAD_FACTOR)));
    }

    /** The bucket of {@code key}. */
    static long bucketOf(byte[] key, long buckets) {
        long hash = 0xCBF29CE484222325L;
        for (byte b : key) {
            hash ^= b & 0xFF;
            hash *= 1099511628211L;
        }
        return Math.floorMod(hash ^ (hash >>> 29), buckets);
    }

    /** Plans {@code data} in pages of {@code layout}: a counting sort of the records by bucket. */
    static BucketPlan of(KvDataset data, RecordPageLayout layout) {
        long buckets = bucketsFor(data.records(), layout);
        if (buckets > Integer.MAX_VALUE - 1) {
            throw new IllegalArgumentException("too many buckets: " + buckets);
        }
        int n = (int) data.records();
        int[] bucketOfRecord = new int[n];
        long[] first = new long[(int) buckets + 1];
        for (int i = 0; i < n; i++) {
            bucketOfRecord[i] = (int) bucketOf(RecordPageLayout.keyBytes(data.key(i)), buckets);
            first[bucketOfRecord[i] + 1]++;
        }
        for (int b = 0; b < buckets; b++) {
            first[b + 1] += first[b];
        }
        int[] order = new int[n];
        long[] fill = Arrays.copyOf(first, (int) buckets);
        for (int i = 0; i < n; i++) {
            order[(int) fill[bucketOfRecord[i]]++] = i;
        }
        long[] overflowStart = new long[(int) buckets + 1];
        long next = buckets;
        int slots = layout.slotsPerPage();
        for (int b = 0; b < buckets; b++) {
            overflowStart[b] = next;
            long count = first[b + 1] - first[b];
            next += Math.max(0, (count - 1) / slots); // pages beyond the primary
        }
        overflowStart[(int) buckets] = next;
        return new BucketPlan(data, layout, buckets, order, first, overflowStart, next);
    }

    long buckets() {
        return buckets;
    }

    /** Pages the load writes: primaries and overflow pages. */
    long pages() {
        return pages;
    }

    /** Fills page {@code pageId} of the load ({@code payload} zeroed, at least the layout's payload bytes). */
    void fill(long pageId, MemorySegment payload) {
        if (payload.byteSize() < layout.payloadBytes()) {
            throw new IllegalStateException("a page payload of " + payload.byteSize() + " bytes is smaller than the"
                    + " planned " + layout.payloadBytes());
        }
        long bucket;
        long chainIndex;
        if (pageId < buckets) {
            bucket = pageId;
            chainIndex = 0;
        } else {
            int found = Arrays.binarySearch(overflowStart, 0, (int) buckets + 1, pageId);
            // the bucket whose overflow range holds pageId: the last start <= pageId (runs of equal starts
            // belong to buckets without overflow pages, so take the last of a run)
            int b = found >= 0 ? found : -found - 2;
            while (b + 1 < buckets && overflowStart[b + 1] <= pageId) {
                b++;
            }
            bucket = b;
            chainIndex = pageId - overflowStart[b] + 1;
        }
        int slots = layout.slotsPerPage();
        long from = first[(int) bucket] + chainIndex * slots;
        long to = Math.min(first[(int) bucket + 1], from + slots);
        byte[] record = new byte[layout.recordBytes()];
        int slot = 0;
        for (long i = from; i < to; i++, slot++) {
            int r = order[(int) i];
            data.value(r, record);
            layout.writeSlot(payload, slot, RecordPageLayout.keyBytes(data.key(r)), record);
        }
        RecordPageLayout.setUsed(payload, slot);
        long overflowPages = overflowStart[(int) bucket + 1] - overflowStart[(int) bucket];
        RecordPageLayout.setNext(payload, chainIndex < overflowPages ? overflowStart[(int) bucket] + chainIndex : -1);
    }
}
