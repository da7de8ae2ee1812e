package io.most.buffer;

import io.most.errors.ConfigurationException;
import io.most.errors.DataLossException;
import io.most.device.BatchIOException;
import io.most.device.BlockDevice;
import io.most.device.IoRequest;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The page store's layout on its block device:
 *
 * <pre>
 * page 0, 1             superblocks A and B (the valid one with the higher generation wins)
 * 2 .. 2+b              allocation bitmap, copy 0
 * 2+b .. 2+2b           allocation bitmap, copy 1
 * 2+2b .. 2+2b+s         double-write slots ({@link DoubleWriteArea}, s = {@value DoubleWriteArea#SLOTS})
 * 2+2b+s ..             data pages 0 .. pageCount-1
 * </pre>
 *
 * Persisting the allocation state writes the whole bitmap to the copy not in use, forces, then
 * writes the other superblock naming that copy (with the bitmap's CRC) and forces again, so a
 * crash at any point leaves one complete, consistent bitmap. The superblock's fields sit in its
 * first 4 KiB block, which devices write atomically: a superblock that fails its checksum was
 * damaged at rest, not torn, and may have been the newer one, so opening refuses
 * ({@link DataLossException}) rather than silently using the older copy.
 *
 * <p>The superblock also records the PM file the store depends on ({@link PmDependency}): pages
 * whose newest durable version is in PM exist nowhere else, so opening without that exact file (or
 * with a blank, truncated or stale copy of it) must be refused, not served as zeros.
 *
 * <p>Data pages larger than the device's atomic write unit are written through the double-write
 * area, so a write torn by power loss is repaired when the store opens, not only detected.
 */
final class BlockStore {
    private static final long MAGIC = 0x4D4F_5354_5354_4F52L; // "MOSTSTOR"
    /** 3: the double-write area before the data pages. */
    private static final int FORMAT_VERSION = 3;
    private static final int SUPERBLOCK_BYTES = 104;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final System.Logger LOG = System.getLogger(BlockStore.class.getName());

    private final BlockDevice device;
    private final int pageSize;
    private final long pageCount;
    private final long bitmapPages;
    private final AllocationMap allocations;
    private final DoubleWriteArea doubleWrite;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment bitmapBuffer;
    private final MemorySegment superBuffer;
    private UUID storeId;
    private long generation;
    private int activeBitmap;
    private int activeBitmapCrc;
    /** Every write sequence handed out so far is below this; persisted in the superblock. */
    private long sequenceLease;
    private PmDependency pmDependency = PmDependency.NONE;
    /** Persisted high-water mark of allocated ids (see {@link AllocationMap#takeReused}). */
    private long usedBelow;
    private boolean unformatted;

    private BlockStore(BlockDevice device, int pageSize) {
        this.device = device;
        this.pageSize = pageSize;
        long total = device.capacity() / pageSize;
        this.bitmapPages = Math.max(1, (total + 8L * pageSize - 1) / (8L * pageSize));
        this.pageCount = total - metadataPages(bitmapPages);
        if (pageCount < 1) {
            throw new ConfigurationException("block device '" + device.name() + "' of " + device.capacity()
                    + " bytes is too small for " + pageSize + "-byte pages and their metadata: use at least "
                    + (metadataPages(bitmapPages) + 1) * pageSize + " bytes");
        }
        this.doubleWrite = new DoubleWriteArea(device, (2 + 2 * bitmapPages) * pageSize, pageSize);
        this.allocations = new AllocationMap(pageCount);
        this.bitmapBuffer = device.allocate(arena, bitmapPages * pageSize);
        this.superBuffer = device.allocate(arena, pageSize);
    }

    /**
     * The smallest device capacity that holds {@code pages} data pages of {@code pageSize} bytes with
     * this layout's superblocks and two bitmap copies (the inverse of the constructor's arithmetic).
     */
    static long deviceBytesFor(long pages, int pageSize) {
        long bitmap = 1;
        while (true) {
            long total = pages + metadataPages(bitmap);
            long needed = Math.max(1, (total + 8L * pageSize - 1) / (8L * pageSize));
            if (needed <= bitmap) {
                return total * pageSize;
            }
            bitmap = needed;
        }
    }

    /** Pages before the first data page: two superblocks, two bitmap copies, the double-write slots. */
    private static long metadataPages(long bitmapPages) {
        return 2 + 2 * bitmapPages + DoubleWriteArea.SLOTS;
    }

    /**
     * Opens the store on {@code device}, formatting it if it is blank. A damaged superblock copy is a
     * {@link DataLossException} unless {@code acceptDataLoss}. The store owns the device: if opening
     * fails, the device is closed (and its file lock released).
     */
    static BlockStore open(BlockDevice device, int pageSize, boolean acceptDataLoss) {
        BlockStore store;
        try {
            store = new BlockStore(device, pageSize);
        } catch (RuntimeException e) {
            device.close();
            throw e;
        }
        try {
            store.load(acceptDataLoss);
            return store;
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    private void load(boolean acceptDataLoss) {
        Superblock a = readSuperblock(0);
        boolean aDamaged = a == null && !isBlank(0);
        Superblock b = readSuperblock(1);
        boolean bDamaged = b == null && !isBlank(1);
        Superblock best = a == null ? b : b == null ? a : a.generation >= b.generation ? a : b;
        if (best != null && best.pageSize != pageSize) {
            // checked first: with another page size, the second superblock is looked for in the wrong place
            throw new ConfigurationException("block device '" + device.name() + "' holds a store with "
                    + best.pageSize + "-byte pages; configure pageSize(" + best.pageSize + ")");
        }
        if (best != null && (aDamaged || bDamaged)) {
            String what = "superblock copy " + (aDamaged ? "A" : "B") + " of block device '" + device.name()
                    + "' fails its checksum (media damage); it may have been the newer copy, so the allocation"
                    + " state of the other copy may be older than the last checkpoint";
            DataLoss.refuseUnlessAccepted(acceptDataLoss, what, "restore the device", "continue from the intact copy");
        }
        if (best == null) {
            if (aDamaged || bDamaged) {
                throw new ConfigurationException("block device '" + device.name() + "' holds data that is not a"
                        + " MOST page store (or both superblocks are damaged): use a blank device or file");
            }
            storeId = UUID.randomUUID();
            generation = 0;
            activeBitmap = 1;
            unformatted = true; // written by commitFormat(), once every other check has passed
            return;
        }
        if (best.pageCount > pageCount) {
            throw new ConfigurationException("block device '" + device.name() + "' holds a store of "
                    + best.pageCount + " pages but only has room for " + pageCount + ": restore its size");
        }
        if (best.pageCount != pageCount) {
            throw new ConfigurationException("block device '" + device.name() + "' was formatted for "
                    + best.pageCount + " pages; it now has room for " + pageCount + " (growing is not supported yet)");
        }
        storeId = best.storeId;
        generation = best.generation;
        activeBitmap = best.activeBitmap;
        activeBitmapCrc = best.bitmapCrc;
        sequenceLease = best.sequenceLease;
        pmDependency = best.pmDependency;
        device.read(bitmapOffset(activeBitmap), bitmapBuffer);
        if (Checksums.crc32c(bitmapBuffer) != best.bitmapCrc) {
            throw new ConfigurationException("allocation bitmap of block device '" + device.name()
                    + "' fails its checksum: the store is damaged");
        }
        allocations.readFrom(bitmapBuffer);
        usedBelow = best.usedBelow;
        allocations.setUsedBelow(usedBelow);
        int repaired = doubleWrite.recover(pageCount, this::offsetOf);
        if (repaired > 0) {
            LOG.log(System.Logger.Level.INFO, "block device ''{0}'': {1} torn page writes repaired from the"
                    + " double-write area", device.name(), repaired);
        }
    }

    private record Superblock(int pageSize, long pageCount, UUID storeId, long generation, int activeBitmap,
                              int bitmapCrc, long sequenceLease, PmDependency pmDependency, long usedBelow) {
    }

    private Superblock readSuperblock(int slot) {
        device.read((long) slot * pageSize, superBuffer);
        if (superBuffer.get(LONG, 0) != MAGIC) {
            return null;
        }
        int version = superBuffer.get(INT, 8);
        if (version != FORMAT_VERSION) {
            throw new ConfigurationException("block device '" + device.name() + "' holds store format " + version
                    + "; this build reads format " + FORMAT_VERSION);
        }
        if (superBuffer.get(INT, SUPERBLOCK_BYTES) != Checksums.crc32c(superBuffer.asSlice(0, SUPERBLOCK_BYTES))) {
            return null;
        }
        return new Superblock(superBuffer.get(INT, 12), superBuffer.get(LONG, 16),
                new UUID(superBuffer.get(LONG, 24), superBuffer.get(LONG, 32)), superBuffer.get(LONG, 40),
                superBuffer.get(INT, 48), superBuffer.get(INT, 52), superBuffer.get(LONG, 56),
                new PmDependency(new UUID(superBuffer.get(LONG, 64), superBuffer.get(LONG, 72)),
                        superBuffer.get(LONG, 80), superBuffer.get(LONG, 88)), superBuffer.get(LONG, 96));
    }

    private boolean isBlank(int slot) {
        device.read((long) slot * pageSize, superBuffer);
        return superBuffer.mismatch(MemorySegment.ofArray(new byte[pageSize])) == -1;
    }

    /**
     * Formats a blank device (bitmap copy 0, superblock generation 1). Deferred from {@link #open} so
     * that a store refused for another reason (a PM file of another store, say) writes nothing.
     */
    synchronized void commitFormat() {
        if (unformatted) {
            persistAllocations();
            unformatted = false;
        }
    }

    /**
     * Erases the block-device image of {@code pageId} if the id was just allocated again after an
     * earlier life ({@link AllocationMap#takeReused}). Under this store's lock, so that it happens
     * either here or in {@link #persistAllocations}, which erases what is pending before the bitmap
     * that makes the allocation durable: a crash never brings back the contents of a freed page.
     */
    synchronized void eraseIfReused(long pageId) {
        if (allocations.takeReused(pageId)) {
            erase(pageId);
        }
    }

    private void erase(long pageId) {
        superBuffer.fill((byte) 0); // an all-zero image reads as never written
        // not through the double-write area: a torn erase only hits a page whose allocation is not durable
        device.write(offsetOf(pageId), superBuffer);
    }

    /** Makes the current allocation state durable (see the class comment). */
    synchronized void persistAllocations() {
        for (long pageId : allocations.takeAllReused()) {
            erase(pageId); // forced with the bitmap below, before the superblock that publishes it
        }
        int target = 1 - activeBitmap;
        allocations.writeTo(bitmapBuffer);
        usedBelow = allocations.usedBelow(); // read after the copy: it covers every id the copy holds
        int bitmapCrc = Checksums.crc32c(bitmapBuffer);
        device.write(bitmapOffset(target), bitmapBuffer);
        device.force();
        writeSuperblock(target, bitmapCrc, sequenceLease);
    }

    /**
     * Makes the allocation state durable unless nothing changed since the last time. Checked under this
     * store's lock: the bitmap is marked clean when it is copied, before it is written, so a caller that
     * saw it clean outside the lock could write a page whose allocation another thread is still making
     * durable; here it waits for that thread instead.
     */
    synchronized void persistAllocationsIfChanged() {
        if (allocations.isDirty()) {
            persistAllocations();
        }
    }

    /** The write-sequence lease: every sequence handed out by earlier runs is below it. */
    synchronized long sequenceLease() {
        return sequenceLease;
    }

    /** The PM file this store's pages may depend on, as last recorded. */
    synchronized PmDependency pmDependency() {
        return pmDependency;
    }

    /** Durably records that the store's pages may depend on {@code dependency} (or on no PM file). */
    synchronized void recordPmDependency(PmDependency dependency) {
        pmDependency = dependency;
        writeSuperblock(activeBitmap, activeBitmapCrc, sequenceLease);
    }

    /** Durably raises the write-sequence lease to {@code lease}. */
    synchronized void extendSequenceLease(long lease) {
        if (lease > sequenceLease) {
            writeSuperblock(activeBitmap, activeBitmapCrc, lease);
        }
    }

    private void writeSuperblock(int bitmapCopy, int bitmapCrc, long lease) {
        generation++;
        superBuffer.fill((byte) 0);
        superBuffer.set(LONG, 0, MAGIC);
        superBuffer.set(INT, 8, FORMAT_VERSION);
        superBuffer.set(INT, 12, pageSize);
        superBuffer.set(LONG, 16, pageCount);
        superBuffer.set(LONG, 24, storeId.getMostSignificantBits());
        superBuffer.set(LONG, 32, storeId.getLeastSignificantBits());
        superBuffer.set(LONG, 40, generation);
        superBuffer.set(INT, 48, bitmapCopy);
        superBuffer.set(INT, 52, bitmapCrc);
        superBuffer.set(LONG, 56, lease);
        superBuffer.set(LONG, 64, pmDependency.pmId().getMostSignificantBits());
        superBuffer.set(LONG, 72, pmDependency.pmId().getLeastSignificantBits());
        superBuffer.set(LONG, 80, pmDependency.frames());
        superBuffer.set(LONG, 88, pmDependency.generation());
        superBuffer.set(LONG, 96, usedBelow);
        superBuffer.set(INT, SUPERBLOCK_BYTES, Checksums.crc32c(superBuffer.asSlice(0, SUPERBLOCK_BYTES)));
        device.write((generation & 1) * pageSize, superBuffer);
        device.force();
        activeBitmap = bitmapCopy;
        activeBitmapCrc = bitmapCrc;
        sequenceLease = lease;
    }

    private long bitmapOffset(int copy) {
        return (2 + copy * bitmapPages) * pageSize;
    }


    UUID storeId() {
        return storeId;
    }

    long pageCount() {
        return pageCount;
    }

    AllocationMap allocations() {
        return allocations;
    }

    BlockDevice device() {
        return device;
    }

    /** Byte offset of data page {@code pageId} on the device. */
    long offsetOf(long pageId) {
        return (metadataPages(bitmapPages) + pageId) * pageSize;
    }

    void readPage(long pageId, MemorySegment frame) {
        device.read(offsetOf(pageId), frame);
    }

    /**
     * Reads data pages {@code pageIds[0..n)} into {@code frames[0..n)} as one device batch
     * ({@link BlockDevice#transferAll}); answers the failure of each read that failed, by its index
     * (empty if all succeeded). A batch the device refused whole (closed, say) fails every index.
     */
    Map<Integer, RuntimeException> readPages(long[] pageIds, MemorySegment[] frames, int n) {
        List<IoRequest> reads = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            reads.add(IoRequest.read(offsetOf(pageIds[k]), frames[k]));
        }
        try {
            device.transferAll(reads);
            return Map.of();
        } catch (BatchIOException e) {
            return e.failures();
        } catch (RuntimeException e) {
            Map<Integer, RuntimeException> all = new HashMap<>();
            for (int k = 0; k < n; k++) {
                all.put(k, e);
            }
            return all;
        }
    }

    /** The most pages {@link #writePages} takes in one call. */
    int maxWriteBatch() {
        return doubleWrite.maxBatch();
    }

    /** Writes the sealed page {@code frame} in place, through the double-write area if it can tear. */
    void writePage(long pageId, MemorySegment frame) {
        doubleWrite.write(offsetOf(pageId), frame);
    }

    /**
     * Writes the sealed images {@code frames[0..n)} of pages {@code pageIds[0..n)} in place, the batch
     * as one device batch, through the double-write area if they can tear ({@link DoubleWriteArea#writeAll});
     * at most {@link #maxWriteBatch} pages. Durable after {@link #force}.
     */
    void writePages(long[] pageIds, MemorySegment[] frames, int n) {
        long[] offsets = new long[n];
        for (int k = 0; k < n; k++) {
            offsets[k] = offsetOf(pageIds[k]);
        }
        doubleWrite.writeAll(offsets, frames, n);
    }

    void force() {
        doubleWrite.force();
    }

    /** Releases buffers and closes the device. */
    void close() {
        try {
            device.close();
        } finally {
            arena.close();
        }
    }
}
