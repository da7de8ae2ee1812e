package io.most.cache;

import io.most.PageStoreStats;

/**
 * A snapshot of a {@link MostCache}'s counters, monotonic since open except the gauges marked so.
 *
 * <p><b>Tiers.</b> A small-item hit reads one bucket page, which the page store serves from DRAM, PM
 * or its block device: {@link #pageStore()} counts those page accesses ({@code dramHits},
 * {@code pmHits}, {@code misses}), misses of the per-bucket filter included, since the cache's
 * bucket-page accesses are the only ones of that store; a hit in the small items' DRAM front
 * ({@link #smallItemFrontHits}) reads no page, and a small-item write the front absorbs
 * ({@link #smallItemWritesAbsorbed}) neither reads nor writes one. A large-item hit is served either from the
 * region being filled (DRAM, {@link #regionBufferHits}) or by a device read ({@link #regionDeviceReads}).
 *
 * @param hits               gets that returned a value
 * @param misses             gets that found nothing (absent, expired or corrupt)
 * @param smallItemHits      hits of small items: from a bucket page, or from the small items' DRAM front
 * @param largeItemHits      hits served from a region
 * @param filterRejects      small-item misses the per-bucket DRAM filter answered without a page read
 * @param puts               values written (put, putIfAbsent, replace, compute, putAll)
 * @param removals           entries removed by a caller
 * @param evictions          live entries dropped to make room: a reclaimed region's cold items (the
 *                           regions are full), or a full bucket's oldest items in a cache without regions
 * @param expirations        entries dropped because their lifetime had passed
 * @param reinsertions       hot large items copied forward when their region was reclaimed
 * @param bucketOverflows    small items written to the regions because their bucket was full of live
 *                           items (instead of evicting one of them)
 * @param corruptItems       items or bucket pages found corrupt (dropped, never returned)
 * @param regionBufferHits   large-item hits served from the region being filled (DRAM)
 * @param regionDeviceReads  large-item reads from the large-item device
 * @param frontHits          large-item hits served from the item-level DRAM front (no device read)
 * @param smallItemFrontHits small-item hits served from the small items' DRAM front: no bucket page
 *                           read, in DRAM or on the device (counted in {@code smallItemHits} too)
 * @param smallItemWritesAbsorbed small-item writes the DRAM front took alone: no bucket page was read or
 *                           written for them (each saves a page read and a page write, less the
 *                           {@code smallItemWriteBacks} that store the last of them later)
 * @param smallItemFrontInvalidations small-item writes taken by the front that first removed an older copy
 *                           of their key from its bucket page (one page access each, a device read if
 *                           the page was not buffered)
 * @param smallItemWriteBacks dirty small items the front wrote to their bucket page (or, their bucket
 *                           full, to the regions): on eviction from the front, at a flush or a close
 * @param smallItemDirtyBytes gauge: bytes of small-item writes held in DRAM alone (lost by a crash),
 *                           at most the front's size
 * @param entries            gauge: entries stored (expired ones not yet dropped included)
 * @param smallItemEntries   gauge: entries in bucket pages
 * @param largeItemEntries   gauge: entries in regions
 * @param pageStore          the bucket pages' page store counters (DRAM / PM / device page accesses)
 */
public record CacheStats(
        long hits,
        long misses,
        long smallItemHits,
        long largeItemHits,
        long filterRejects,
        long puts,
        long removals,
        long evictions,
        long expirations,
        long reinsertions,
        long bucketOverflows,
        long corruptItems,
        long regionBufferHits,
        long regionDeviceReads,
        long frontHits,
        long smallItemFrontHits,
        long smallItemWritesAbsorbed,
        long smallItemFrontInvalidations,
        long smallItemWriteBacks,
        long smallItemDirtyBytes,
        long entries,
        long smallItemEntries,
        long largeItemEntries,
        PageStoreStats pageStore) {

    /** Hits and misses. */
    public long gets() {
        return hits + misses;
    }

    /** Hits over gets, or NaN before the first get. */
    public double hitRatio() {
        long gets = gets();
        return gets == 0 ? Double.NaN : (double) hits / gets;
    }
}
