package io.most.buffer;

import io.most.ConfigurationException;
import io.most.device.PmemDevice;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.UUID;

/**
 * The PM buffer's file: page 0 is a superblock naming the store it belongs to and its geometry;
 * pages 1.. are frames. Frames hold self-describing pages ({@link PageHeader}), so the buffer's
 * mapping table can be rebuilt from the frames alone after a crash.
 */
final class PmArea {
    private static final long MAGIC = 0x4D4F_5354_504D_454DL; // "MOSTPMEM"
    private static final int FORMAT_VERSION = 1;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    final PmemDevice device;
    final int pageSize;
    final MemorySegment frames;

    private PmArea(PmemDevice device, int pageSize) {
        this.device = device;
        this.pageSize = pageSize;
        this.frames = device.segment().asSlice(pageSize);
    }

    /**
     * Opens the PM file for the store {@code storeId}, formatting it when new. {@code beforeWrite} runs
     * once all checks passed and before the PM superblock is first written (the store formats its
     * block device there, so that a crash in between never leaves a PM file naming a store that does
     * not exist yet).
     *
     * @throws ConfigurationException if it belongs to another store, has another page size, or was
     *                                created larger than {@code bytes}
     */
    static PmArea open(Path path, long bytes, int pageSize, UUID storeId, Runnable beforeWrite) {
        PmemDevice device = PmemDevice.open(path, bytes, 4096);
        try {
            PmArea area = new PmArea(device, pageSize);
            area.checkOrFormat(path, storeId, bytes / pageSize - 1, beforeWrite);
            return area;
        } catch (RuntimeException e) {
            device.close();
            throw e;
        }
    }

    private void checkOrFormat(Path path, UUID storeId, long frameCount, Runnable beforeWrite) {
        MemorySegment sb = device.segment();
        long magic = sb.get(LONG, 0);
        if (magic == 0) {
            if (sb.asSlice(0, pageSize).mismatch(MemorySegment.ofArray(new byte[pageSize])) != -1) {
                throw new ConfigurationException("PM file '" + path + "' holds data that is not a MOST PM buffer:"
                        + " point pm() at another file or delete it");
            }
            beforeWrite.run();
            writeSuperblock(storeId, frameCount);
            return;
        }
        if (magic != MAGIC || sb.get(INT, 40) != Checksums.crc32c(sb.asSlice(0, 40))) {
            throw new ConfigurationException("PM file '" + path + "' is not a MOST PM buffer (or its superblock is"
                    + " damaged): point pm() at another file or delete it");
        }
        UUID owner = new UUID(sb.get(LONG, 24), sb.get(LONG, 32));
        if (!owner.equals(storeId)) {
            throw new ConfigurationException("PM file '" + path + "' belongs to another store (" + owner
                    + ", this store is " + storeId + ") and may hold that store's only copy of some pages:"
                    + " open it with that store's block device, or give this store another PM file");
        }
        int version = sb.get(INT, 8);
        if (version != FORMAT_VERSION) {
            throw new ConfigurationException("PM file '" + path + "' has format " + version + "; this build reads "
                    + FORMAT_VERSION);
        }
        int filePageSize = sb.get(INT, 12);
        if (filePageSize != pageSize) {
            throw new ConfigurationException("PM file '" + path + "' holds " + filePageSize
                    + "-byte pages; configure pageSize(" + filePageSize + ")");
        }
        long fileFrames = sb.get(LONG, 16);
        if (fileFrames > frameCount) {
            throw new ConfigurationException("PM file '" + path + "' holds " + fileFrames + " frames; configure at"
                    + " least " + (fileFrames + 1) * pageSize + " PM bytes so that none of its pages is lost");
        }
        if (fileFrames < frameCount) {
            beforeWrite.run();
            writeSuperblock(storeId, frameCount); // grown: the new frames are blank
        }
    }

    private void writeSuperblock(UUID storeId, long frameCount) {
        MemorySegment sb = device.segment();
        sb.set(LONG, 0, MAGIC);
        sb.set(INT, 8, FORMAT_VERSION);
        sb.set(INT, 12, pageSize);
        sb.set(LONG, 16, frameCount);
        sb.set(LONG, 24, storeId.getMostSignificantBits());
        sb.set(LONG, 32, storeId.getLeastSignificantBits());
        sb.set(INT, 40, Checksums.crc32c(sb.asSlice(0, 40)));
        device.persist(0, 64);
    }

    /**
     * Seals frame {@code f} for {@code pageId} and makes it durable in two steps — payload first, then
     * the header — so that a frame with a valid magic always has its whole payload behind it: after a
     * crash, a frame that fails its checksum although its magic is present was damaged afterwards (or
     * torn while being written in place, which recovery tells apart by its write sequence).
     */
    void sealDurably(int f, MemorySegment frame, long pageId, long lsn, long seq) {
        long offset = (long) (f + 1) * pageSize;
        device.persist(offset + PageHeader.SIZE, pageSize - PageHeader.SIZE);
        PageHeader.seal(frame, pageId, lsn, seq);
        device.persist(offset, PageHeader.SIZE);
    }

    /** Makes the header of frame {@code f} durable (after {@link PageHeader#invalidate}). */
    void persistHeader(int f) {
        device.persist((long) (f + 1) * pageSize, PageHeader.SIZE);
    }

    void close() {
        device.close();
    }

}
