package io.most.buffer;

import io.most.ConfigurationException;
import io.most.DataLossException;
import io.most.device.PmemDevice;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
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
    /** 3: the superblock page holds {@link PmRedoLog}'s records; a format-2 file (no records) is read and upgraded. */
    private static final int FORMAT_VERSION = 3;
    private static final int UPGRADABLE_VERSION = 2;
    private static final int SUPERBLOCK_BYTES = 64;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    final PmemDevice device;
    final int pageSize;
    final MemorySegment frames;
    final Path path;
    private final UUID storeId;
    private UUID pmId;
    private long frameCount;
    private PmRedoLog redo;
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
        Superblock found = readSuperblock(path, pageSize, sizeBefore);
        String loss = found.check(path, storeId, pageSize, sizeBefore, bytes / pageSize - 1, expected);
        if (loss != null) {
            String what = "the block device depends on " + expected.describe() + ", the only durable copy of"
                    + " up to " + expected.frames() + " pages, but '" + path + "' " + loss;
            DataLoss.refuseUnlessAccepted(acceptDataLoss, what, "restore that file",
                    "revert those pages to their block-device copies (the file is reformatted)");
        }
        // only now, with every check passed, may the file be created, extended or changed
        PmemDevice device = PmemDevice.open(path, bytes, 4096);
        try {
            PmArea area = new PmArea(device, path, pageSize, storeId);
            area.frameCount = bytes / pageSize - 1;
            area.redo = new PmRedoLog(device.segment(), pageSize, area.frameCount, device::persist);
            boolean reuse = loss == null && found.magic != 0 && expected.attached();
            if (reuse) {
                area.pmId = found.pmId;
                area.generation = found.generation;
            } else if (found.magic != 0) {
                // a lost or no longer needed buffer of this store: its frames must not reach recovery
                area.clearFrames();
            }
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

    /** The first page of the file as it is (zeros past its end), read without mapping or extending it. */
    private static Superblock readSuperblock(Path path, int pageSize, long size) {
        ByteBuffer page = ByteBuffer.allocate(pageSize).order(ByteOrder.nativeOrder());
        if (size > 0) {
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
                while (page.hasRemaining() && channel.read(page, page.position()) > 0) {
                    // read what the file has
                }
            } catch (java.io.IOException e) {
                throw new ConfigurationException("cannot read PM file '" + path + "': " + e.getMessage(), e);
            }
        }
        return new Superblock(MemorySegment.ofBuffer(page.clear()));
    }

    /** The PM superblock's fields, as found in the file. */
    private static final class Superblock {
        final MemorySegment sb;
        final long magic;
        final UUID pmId;
        final long generation;

        Superblock(MemorySegment sb) {
            this.sb = sb;
            this.magic = sb.get(LONG, 0);
            this.pmId = new UUID(sb.get(LONG, 40), sb.get(LONG, 48));
            this.generation = sb.get(LONG, 56);
        }

        /**
         * Returns null if the file may be used as it is (or formatted), or what makes it lose pages the
         * block device depends on; throws for a file that must not be touched at all.
         */
        String check(Path path, UUID storeId, int pageSize, long sizeBefore, long configuredFrames,
                     PmDependency expected) {
            if (magic == 0) {
                if (sb.mismatch(MemorySegment.ofArray(new byte[pageSize])) != -1) {
                    throw new ConfigurationException("PM file '" + path + "' holds data that is not a MOST PM"
                            + " buffer: point pm() at another file or delete it");
                }
                if (expected.attached()) {
                    return sizeBefore == 0 ? "is missing or empty" : "is blank";
                }
                return null;
            }
            if (magic == MAGIC && sb.get(INT, 8) != FORMAT_VERSION && sb.get(INT, 8) != UPGRADABLE_VERSION) {
                throw new ConfigurationException("PM file '" + path + "' has format " + sb.get(INT, 8)
                        + "; this build reads " + FORMAT_VERSION);
            }
            if (magic != MAGIC || sb.get(INT, SUPERBLOCK_BYTES) != Checksums.crc32c(sb.asSlice(0, SUPERBLOCK_BYTES))) {
                throw new ConfigurationException("PM file '" + path + "' is not a MOST PM buffer (or its superblock"
                        + " is damaged): point pm() at another file or delete it");
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
                throw new ConfigurationException("PM file '" + path + "' holds " + fileFrames + " frames; configure"
                        + " at least " + (fileFrames + 1) * pageSize + " PM bytes so that none of its pages is lost");
            }
            if (!expected.attached()) {
                // nothing was made durable only here since the block device dropped its dependency
                LOG.log(System.Logger.Level.INFO, "PM file {0} is an earlier buffer of this store that the block"
                        + " device no longer depends on; reusing it blank", path);
                return null;
            }
            if (!pmId.equals(expected.pmId())) {
                return "is another PM file of this store (" + pmId + ")";
            }
            if (generation != expected.generation() && generation != expected.generation() + 1) {
                return "is a stale copy (generation " + generation + ")";
            }
            if (fileFrames < expected.frames() || sizeBefore < (fileFrames + 1) * pageSize) {
                return "was truncated to " + sizeBefore + " bytes (its superblock records " + fileFrames
                        + " frames of " + pageSize + " bytes)";
            }
            return null;
        }
    }

    /** Invalidates every frame and redo record (a reused or reformatted file must not offer old images to recovery). */
    private void clearFrames() {
        frames.fill((byte) 0);
        redo.clear();
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

    /**
     * Updates frame {@code m}, the only durable copy of {@code pageId}, to the contents of the private
     * copy {@code r} sealed at {@code lsn} and {@code seq}, persisting only the cache lines that changed
     * ({@link PmRedoLog#update}). Returns the bytes persisted, or -1 if declined (nothing written: the
     * caller then seals {@code r} with {@link #sealDurably}).
     */
    long updateChangedLines(int m, int r, long pageId, long lsn, long seq) {
        return redo.update(m, r, pageId, lsn, seq);
    }

    /**
     * {@link #updateChangedLines(int, int, long, long, long)} with the new contents in {@code source}
     * (a dirty DRAM copy of the page): the changed lines are copied into the free frame {@code r}
     * ({@link PmRedoLog#update(int, int, MemorySegment, long, long, long)}).
     */
    long updateChangedLines(int m, int r, MemorySegment source, long pageId, long lsn, long seq) {
        return redo.update(m, r, source, pageId, lsn, seq);
    }

    /** Completes the in-place updates a crash interrupted ({@link PmRedoLog#replay}); before recovery scans. */
    int replayRedo() {
        return redo.replay();
    }

    /**
     * Clears frame {@code f}'s commit word ({@link PageHeader#invalidate}) and makes that durable: from
     * then on recovery treats the frame as free.
     */
    void invalidate(int f) {
        PageHeader.invalidate(frames.asSlice((long) f * pageSize, pageSize));
        persistHeader(f);
    }

    /** Makes the header of frame {@code f} durable (after {@link PageHeader#invalidate}). */
    void persistHeader(int f) {
        device.persist((long) (f + 1) * pageSize, PageHeader.SIZE);
    }

    void close() {
        device.close();
    }

}
