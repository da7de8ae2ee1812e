package io.most.buffer;

import io.most.ConfigurationException;
import io.most.DataLossException;
import io.most.device.PmemDevice;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * The PM buffer's file: page 0 is a superblock naming the store it belongs to, its own id and
 * generation, and its geometry; pages 1.. are frames. Frames hold self-describing pages
 * ({@link PageHeader}), so the buffer's mapping table can be rebuilt from the frames alone after a
 * crash.
 *
 * <p>The block store records which PM file its pages depend on ({@link PmDependency}). Opening checks
 * the file against that record before anything is written: a missing, blank, truncated, replaced or
 * stale file would silently turn the pages whose only durable copy it held into zeros or older
 * versions, so it is a {@link DataLossException} unless the configuration accepts the loss.
 */
final class PmArea {
    private static final System.Logger LOG = System.getLogger(PmArea.class.getName());
    private static final long MAGIC = 0x4D4F_5354_504D_454DL; // "MOSTPMEM"
    private static final int FORMAT_VERSION = 2;
    private static final int SUPERBLOCK_BYTES = 64;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    final PmemDevice device;
    final int pageSize;
    final MemorySegment frames;
    private final Path path;
    private final UUID storeId;
    private UUID pmId;
    private long frameCount;
    private long generation;

    private PmArea(PmemDevice device, Path path, int pageSize, UUID storeId) {
        this.device = device;
        this.path = path;
        this.pageSize = pageSize;
        this.storeId = storeId;
        this.frames = device.segment().asSlice(pageSize);
    }

    /**
     * Opens the PM file for the store {@code storeId} whose block device records {@code expected}.
     * Writes nothing: {@link #attach} does, once the store is known to open.
     *
     * @throws ConfigurationException if the file belongs to another store, holds data that is not a
     *                                PM buffer, has another page size or format, or was created
     *                                larger than {@code bytes}
     * @throws DataLossException      if the store depends on a PM file and this one is missing, blank,
     *                                truncated, another PM file of this store, or stale, unless
     *                                {@code acceptDataLoss} (the file is then reformatted)
     */
    static PmArea open(Path path, long bytes, int pageSize, UUID storeId, PmDependency expected,
                       boolean acceptDataLoss) {
        long sizeBefore = sizeOf(path);
        PmemDevice device = PmemDevice.open(path, bytes, 4096);
        try {
            PmArea area = new PmArea(device, path, pageSize, storeId);
            String loss = area.check(sizeBefore, bytes / pageSize - 1, expected);
            if (loss != null) {
                String what = "the block device depends on " + expected.describe() + ", the only durable copy of"
                        + " up to " + expected.frames() + " pages, but '" + path + "' " + loss;
                if (!acceptDataLoss) {
                    throw new DataLossException(what + ": restore that file, or open with acceptDataLoss(true) to"
                            + " revert those pages to their block-device copies");
                }
                LOG.log(System.Logger.Level.WARNING, what + "; reformatting it because acceptDataLoss is set");
                area.pmId = null; // attach() formats it anew
                area.clearFrames();
            }
            area.frameCount = bytes / pageSize - 1;
            return area;
        } catch (RuntimeException e) {
            device.close();
            throw e;
        }
    }

    private static long sizeOf(Path path) {
        try {
            return Files.exists(path) ? Files.size(path) : 0;
        } catch (java.io.IOException e) {
            throw new ConfigurationException("cannot inspect PM file '" + path + "': " + e.getMessage(), e);
        }
    }

    /**
     * Reads and checks the superblock; returns null if the file may be used as it is (or formatted),
     * or what makes it lose pages the block device depends on.
     */
    private String check(long sizeBefore, long configuredFrames, PmDependency expected) {
        MemorySegment sb = device.segment();
        long magic = sb.get(LONG, 0);
        if (magic == 0) {
            if (sb.asSlice(0, pageSize).mismatch(MemorySegment.ofArray(new byte[pageSize])) != -1) {
                throw new ConfigurationException("PM file '" + path + "' holds data that is not a MOST PM buffer:"
                        + " point pm() at another file or delete it");
            }
            if (expected.attached()) {
                return sizeBefore == 0 ? "is missing or empty" : "is blank";
            }
            return null;
        }
        if (magic != MAGIC || sb.get(INT, SUPERBLOCK_BYTES) != Checksums.crc32c(sb.asSlice(0, SUPERBLOCK_BYTES))) {
            if (sb.get(INT, 8) != FORMAT_VERSION && magic == MAGIC) {
                throw new ConfigurationException("PM file '" + path + "' has format " + sb.get(INT, 8)
                        + "; this build reads " + FORMAT_VERSION);
            }
            throw new ConfigurationException("PM file '" + path + "' is not a MOST PM buffer (or its superblock is"
                    + " damaged): point pm() at another file or delete it");
        }
        UUID owner = new UUID(sb.get(LONG, 24), sb.get(LONG, 32));
        if (!owner.equals(storeId)) {
            throw new ConfigurationException("PM file '" + path + "' belongs to another store (" + owner
                    + ", this store is " + storeId + ") and may hold that store's only copy of some pages:"
                    + " open it with that store's block device, or give this store another PM file");
        }
        int filePageSize = sb.get(INT, 12);
        if (filePageSize != pageSize) {
            throw new ConfigurationException("PM file '" + path + "' holds " + filePageSize
                    + "-byte pages; configure pageSize(" + filePageSize + ")");
        }
        long fileFrames = sb.get(LONG, 16);
        if (fileFrames > configuredFrames) {
            throw new ConfigurationException("PM file '" + path + "' holds " + fileFrames + " frames; configure at"
                    + " least " + (fileFrames + 1) * pageSize + " PM bytes so that none of its pages is lost");
        }
        UUID id = new UUID(sb.get(LONG, 40), sb.get(LONG, 48));
        long fileGeneration = sb.get(LONG, 56);
        if (!expected.attached()) {
            // nothing of this store was ever made durable only here since the dependency was dropped
            LOG.log(System.Logger.Level.INFO, "PM file {0} is an earlier buffer of this store that the block"
                    + " device no longer depends on; reusing it blank", path);
            clearFrames();
            return null;
        }
        if (!id.equals(expected.pmId())) {
            return "is another PM file of this store (" + id + ")";
        }
        if (fileGeneration != expected.generation() && fileGeneration != expected.generation() + 1) {
            return "is a stale copy (generation " + fileGeneration + ")";
        }
        if (fileFrames < expected.frames() || sizeBefore < (fileFrames + 1) * pageSize) {
            return "was truncated to " + sizeBefore + " bytes (its superblock records " + fileFrames + " frames of "
                    + pageSize + " bytes)";
        }
        pmId = id;
        generation = fileGeneration;
        return null;
    }

    /** Invalidates every frame (a reused or reformatted file must not offer old images to recovery). */
    private void clearFrames() {
        frames.fill((byte) 0);
        device.force();
    }

    /**
     * Makes this file the one the store depends on, with a generation one above {@code expected}'s:
     * writes the PM superblock first, then the block store's record, so a crash in between leaves a
     * PM file whose generation is one ahead, which the next open accepts.
     */
    void attach(BlockStore store, PmDependency expected) {
        if (pmId == null) {
            if (expected.attached()) {
                store.recordPmDependency(PmDependency.NONE); // a crash from here on finds no dependency
            }
            pmId = UUID.randomUUID();
        }
        generation = (expected.attached() ? expected.generation() : 0) + 1;
        writeSuperblock();
        store.recordPmDependency(new PmDependency(pmId, frameCount, generation));
    }

    private void writeSuperblock() {
        MemorySegment sb = device.segment();
        sb.set(LONG, 0, MAGIC);
        sb.set(INT, 8, FORMAT_VERSION);
        sb.set(INT, 12, pageSize);
        sb.set(LONG, 16, frameCount);
        sb.set(LONG, 24, storeId.getMostSignificantBits());
        sb.set(LONG, 32, storeId.getLeastSignificantBits());
        sb.set(LONG, 40, pmId.getMostSignificantBits());
        sb.set(LONG, 48, pmId.getLeastSignificantBits());
        sb.set(LONG, 56, generation);
        sb.set(INT, SUPERBLOCK_BYTES, Checksums.crc32c(sb.asSlice(0, SUPERBLOCK_BYTES)));
        device.persist(0, 128);
    }

    /**
     * Seals frame {@code f} for {@code pageId} and makes it durable by the protocol of
     * {@link PageHeader}: uncommit and write the header fields, persist the frame, store the commit
     * word, persist the header. A crash anywhere before the commit word leaves a frame without magic,
     * which recovery treats as free; it never outranks an older intact copy.
     */
    void sealDurably(int f, MemorySegment frame, long pageId, long lsn, long seq) {
        long offset = (long) (f + 1) * pageSize;
        PageHeader.prepareSeal(frame, pageId, lsn, seq);
        device.persist(offset, pageSize);
        PageHeader.commit(frame);
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
