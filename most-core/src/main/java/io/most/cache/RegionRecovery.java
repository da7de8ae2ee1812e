package io.most.cache;

import io.most.errors.ConfigurationException;
import io.most.device.BlockDevice;
import io.most.device.ForwardingDevice;
import io.most.tier.TieredVolume;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Opening the regions of a large-item device, apart from the running engine ({@link RegionStore}):
 * checks the geometry, formats a blank device or checks the header of a used one, and fills the
 * engine's index either from the file a clean close saved or, after a crash, by scanning every region
 * of a live generation in sequence order (newest item winning, a tombstone removing). It hands the
 * engine the {@link Position} where the ring continues.
 */
final class RegionRecovery {
    /** Where the ring stands after recovery: the generations that count and the next region to open. */
    record Position(long minLiveSeq, int openRegion, long openSeq, boolean indexLoaded) {
    }

    private final BlockDevice device;
    private final int regionSize;
    private final int regionCount;
    private final long headerBytes;
    private final UUID cacheId;
    private final MemorySegment scratch;

    /** A recovery of the regions on {@code device}, reading through {@code scratch} (a region's bytes, aligned). */
    RegionRecovery(BlockDevice device, int regionSize, int regionCount, long headerBytes, UUID cacheId,
                   MemorySegment scratch) {
        this.device = device;
        this.regionSize = regionSize;
        this.regionCount = regionCount;
        this.headerBytes = headerBytes;
        this.cacheId = cacheId;
        this.scratch = scratch;
    }

    /**
     * Where region 0 starts on {@code device}: where its header says for a used device (a cache
     * formatted before regions were aligned keeps its layout), else right after a one-block header,
     * or on a {@link TieredVolume} at the first segment boundary, so that every region covers whole
     * segments and its discard unmaps them (the volume places their next write: MOST 3.2.2).
     *
     * @throws ConfigurationException if a new cache on a tiered volume has regions that are not whole
     *                                segments
     * @throws CacheFormatException   if the device holds something else than a large-item header
     */
    static long regionStart(BlockDevice device, int regionSize) {
        long unaligned = RegionStore.headerBytes(device.blockSize());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment h = device.allocate(arena, unaligned);
            device.read(0, h);
            if (!RegionLayout.deviceHeaderBlank(h)) {
                long start = RegionLayout.regionStart(h, unaligned);
                if (start < unaligned || start % device.blockSize() != 0) {
                    // openHeader names what is wrong with it
                    return unaligned;
                }
                return start;
            }
        }
        TieredVolume volume = volumeUnder(device);
        if (volume == null) {
            return unaligned;
        }
        int segment = volume.segmentSize();
        if (regionSize % segment != 0) {
            throw new ConfigurationException("regionSize " + regionSize + " does not cover whole " + segment
                    + "-byte segments of tiered volume '" + device.name() + "', so a reclaimed region could not be"
                    + " unmapped: set regionSize to a multiple of " + segment + " (e.g. " + segment + ")");
        }
        return Math.max(unaligned, segment);
    }

    /**
     * The tiered volume {@code device} is, or forwards to (a fault, metrics or counting wrapper keeps
     * the offsets, so the volume's segments are the device's), or null.
     */
    static TieredVolume volumeUnder(BlockDevice device) {
        BlockDevice d = device;
        while (d instanceof ForwardingDevice f) {
            d = f.inner();
        }
        return d instanceof TieredVolume v ? v : null;
    }

    /**
     * Refuses a geometry the device cannot hold.
     *
     * @throws ConfigurationException naming the device, what it holds and what the regions need
     */
    static void checkGeometry(BlockDevice device, int regionSize, long regionCount, long headerBytes) {
        if (regionSize % device.blockSize() != 0) {
            throw new ConfigurationException("regionSize " + regionSize + " is not a multiple of the block size "
                    + device.blockSize() + " of device '" + device.name() + "'");
        }
        if (headerBytes + regionCount * regionSize > device.capacity()) {
            throw new ConfigurationException("large-item device '" + device.name() + "' holds "
                    + device.capacity() + " bytes; " + regionCount + " regions of " + regionSize + " need "
                    + (headerBytes + regionCount * regionSize) + ": lower largeItemBytes or give a larger device");
        }
    }

    /**
     * Formats a blank device's header, or checks a used one's.
     *
     * @throws CacheFormatException if the device holds another cache, format or geometry
     */
    void openHeader() {
        MemorySegment h = scratch.asSlice(0, headerBytes);
        device.read(0, h);
        if (RegionLayout.deviceHeaderBlank(h)) {
            h.fill((byte) 0);
            RegionLayout.writeDeviceHeader(h, regionSize, regionCount, cacheId, headerBytes);
            device.write(0, h);
            device.force();
            return;
        }
        String problem = RegionLayout.checkDeviceHeader(h, regionSize, regionCount, cacheId);
        if (problem != null) {
            throw new CacheFormatException("large-item device '" + device.name() + "' cannot be opened: " + problem
                    + "; use the files this cache was created with, or delete them to start empty");
        }
    }

    /**
     * Fills {@code index}: from {@code indexFile} if a clean close saved it there, else by scanning
     * the regions of generation {@code minLiveSeq} or later. Either way the file is deleted, so that a
     * crash from now on is never answered with a stale index.
     */
    Position restore(Path indexFile, boolean clean, long minLiveSeq, Map<ByteKey, RegionStore.Location> index) {
        RegionIndexFile.Header saved = indexFile == null || !clean ? null
                : RegionIndexFile.read(indexFile, cacheId, minLiveSeq, index::put);
        if (indexFile != null) {
            RegionIndexFile.delete(indexFile);
        }
        if (saved != null) {
            return new Position(saved.minLiveSeq(), saved.openRegion(), saved.openSeq(), true);
        }
        index.clear();
        return scan(minLiveSeq, index);
    }

    private long regionOffset(int region) {
        return headerBytes + (long) region * regionSize;
    }

    /** Rebuilds the index from every region of generation {@code >= minLive}, oldest first. */
    private Position scan(long minLive, Map<ByteKey, RegionStore.Location> index) {
        record Found(int region, long seq) {
        }
        List<Found> found = new ArrayList<>();
        MemorySegment head = scratch.asSlice(0, device.blockSize());
        for (int r = 0; r < regionCount; r++) {
            device.read(regionOffset(r), head);
            long seq = RegionLayout.regionSeq(head, cacheId);
            if (seq >= minLive) {
                found.add(new Found(r, seq));
            }
        }
        found.sort(Comparator.comparingLong(Found::seq));
        for (Found f : found) {
            device.read(regionOffset(f.region), scratch);
            int at = RegionLayout.REGION_HEADER_BYTES;
            int bytes;
            while ((bytes = RegionLayout.validItemBytes(scratch, at, f.seq, regionSize)) > 0) {
                ByteKey key = RegionStore.key(RegionLayout.key(scratch, at));
                if (RegionLayout.kind(scratch, at) == RegionLayout.KIND_TOMBSTONE) {
                    index.remove(key);
                } else {
                    index.put(key, new RegionStore.Location(f.region, f.seq, at, bytes, RegionLayout.deadline(scratch, at)));
                }
                at += bytes;
            }
        }
        Found newest = found.isEmpty() ? null : found.getLast();
        return new Position(minLive, newest == null ? 0 : (newest.region + 1) % regionCount,
                Math.max(minLive, newest == null ? 1 : newest.seq + 1), false);
    }
}
