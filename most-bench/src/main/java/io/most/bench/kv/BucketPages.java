package io.most.bench.kv;

import java.lang.foreign.MemorySegment;
import java.util.function.Function;

/**
 * The pages under a {@link HashRecordStore}, and its concurrency control: a bucket (its primary page,
 * id = bucket number, and its overflow chain) is read under a shared lock and changed under an
 * exclusive one. Operations touch one bucket, so there is no lock order to keep.
 */
interface BucketPages {

    /** Usable bytes per page. */
    int payloadBytes();

    /**
     * Runs {@code reader} on the primary page of {@code bucket} with a consistent view; it may run more
     * than once (optimistic reads), so it must be side-effect free and bound every index by the page.
     */
    <R> R readPrimary(long bucket, Function<MemorySegment, R> reader);

    /**
     * A hint that the primary pages of {@code buckets} are about to be read: pages that can be loaded
     * together start loading now. By default nothing (a cache that loads one page per miss).
     */
    default void prefetch(long[] buckets) {
    }

    /** Runs {@code body} holding {@code bucket} shared: pages of its chain may be read. */
    <R> R read(long bucket, Function<Chain, R> body);

    /** Runs {@code body} holding {@code bucket} exclusively: pages of its chain may be changed and added. */
    <R> R write(long bucket, Function<Chain, R> body);

    /** Pages of the bucket held, valid until the body returns. */
    interface Chain {
        /** The page {@code pageId} of the held bucket's chain. */
        MemorySegment page(long pageId);

        /** Bytes {@code [offset, offset + length)} of the page were changed (exclusive hold only). */
        void changed(long pageId, long offset, long length);

        /** A new zeroed page, to link into the held bucket's chain (exclusive hold only). */
        long allocate();
    }
}
