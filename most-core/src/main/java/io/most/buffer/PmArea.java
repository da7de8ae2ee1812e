package io.most.buffer;

import io.most.errors.ConfigurationException;
import io.most.errors.DataLossException;
import io.most.device.FarMemory;
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
 * generation, and its geometry; pages 1.. are frames, followed by the table of delta-frame
 * descriptors ({@link PmDeltaTable}, format 4). Frames hold self-describing pages ({@link PageHeader}),
 * so the buffer's mapping table can be rebuilt from the frames alone after a crash.
 *
 * <p>The block store records which PM file its pages depend on ({@link PmDependency}). Opening checks
 * the file against that record before anything is written: a missing, blank, truncated, replaced or
 * stale file would silently turn the pages whose only durable copy it held into zeros or older
 * versions, so it is a {@link DataLossException} unless the configuration accepts the loss.
 *
 * <p><b>Far memory</b> ({@link #overFarMemory}): the same layout over volatile memory (a NUMA node's or a
 * device-DAX device's, {@link FarMemory}), with {@link #durable} false. Nothing is persisted: frames
 * are sealed (a header the block device's copy needs, as PM frames are written back to it as they
 * are) but never flushed, an update of a dirty frame is a copy in place instead of a redo record, no
 * block-device version is tracked for delta frames, there is no superblock, and the store neither
 * recovers the area nor records a dependency on it. Its dirty pages are dirty as DRAM's are: the
 * store writes them back before dropping them and on checkpoint.
 */
final class PmArea {
    private static final System.Logger LOG = System.getLogger(PmArea.class.getName());
    private static final long MAGIC = 0x4D4F_5354_504D_454DL; // "MOSTPMEM"
    /**
     * 4: the frames are followed by {@link PmDeltaTable}'s descriptors (3: the superblock page holds
     * {@link PmRedoLog}'s records). Format-2 and format-3 files have no delta frames: they are read, and
     * upgraded (their table appended, blank) when the store attaches them. A format-3 build refuses a
     * format-4 file by name.
     */
    static final int FORMAT_VERSION = 4;
    private static final int OLDEST_UPGRADABLE_VERSION = 2;
    private static final int SUPERBLOCK_BYTES = 64;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    /** The PM file's device; null over far memory. */
    final PmemDevice device;
    /** Over far memory, the mapping; null over a PM file. */
    private final FarMemory farMemory;
    /** False over far memory: nothing here survives the process (see the class comment). */
    final boolean durable;
    /** The whole area: superblock page, frames, delta table. */
    private final MemorySegment file;
    private final PmRedoLog.Persister persister;
    final int pageSize;
    final MemorySegment frames;
    /** The PM file, or the far memory's description, for messages. */
    final String path;
    private final long frameCount;
    private final PmDeltaTable deltas;
    /** The table the file held at open, read by recovery; null if none (a new, older-format or reformatted file). */
    private PmDeltaTable recoveryDeltas;
    private final UUID storeId;
    private UUID pmId;
    private final PmRedoLog redo;
    private long generation;

    private PmArea(PmemDevice device, Path path, int pageSize, UUID storeId, long frameCount) {
        this(device, null, device.segment(), device::persist, path.toString(), pageSize, storeId, frameCount);
    }

    private PmArea(PmemDevice device, FarMemory farMemory, MemorySegment file, PmRedoLog.Persister persister,
                   String path, int pageSize, UUID storeId, long frameCount) {
        this.device = device;
        this.farMemory = farMemory;
        this.durable = device != null;
        this.file = file;
        this.persister = persister;
        this.path = path;
        this.pageSize = pageSize;
        this.storeId = storeId;
        this.frameCount = frameCount;
        this.frames = file.asSlice(pageSize, frameCount * pageSize);
        this.redo = new PmRedoLog(file, pageSize, frameCount, persister);
        this.deltas = new PmDeltaTable(file, tableOffset(frameCount, pageSize), pageSize, frameCount, persister);
        if (!durable) {
            deltas.stopTrackingBases();
        }
    }

    /**
     * A volatile area of {@code bytes / pageSize - 1} frames over far memory: NUMA node {@code node}'s
     * memory, or the device-DAX device {@code devdax} if that is not null. Starts empty.
     *
     * @throws ConfigurationException if the node or device cannot supply the memory (see {@link FarMemory})
     */
    static PmArea overFarMemory(int node, Path devdax, long bytes, int pageSize) {
        long frameCount = bytes / pageSize - 1;
        long size = fileBytes(frameCount, pageSize);
        FarMemory memory = devdax == null ? FarMemory.onNode(node, size) : FarMemory.devdax(devdax, size);
        try {
            MemorySegment file = memory.segment();
            if (devdax != null) {
                file.fill((byte) 0); // a device keeps what an earlier process left: none of it may look like a frame
            }
            return new PmArea(null, memory, file, (offset, length) -> { }, memory.toString(), pageSize, null,
                    frameCount);
        } catch (RuntimeException e) {
            memory.close();
            throw e;
        }
    }

    /** Where the delta table of a file of {@code frames} frames starts: right after the last frame. */
    private static long tableOffset(long frames, int pageSize) {
        return (frames + 1) * pageSize;
    }

    /** Bytes of a format-4 file of {@code frames} frames: superblock page, frames, delta table. */
    static long fileBytes(long frames, int pageSize) {
        return tableOffset(frames, pageSize) + PmDeltaTable.bytesFor(frames, pageSize);
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
        long frameCount = bytes / pageSize - 1;
        PmemDevice device = PmemDevice.open(path, fileBytes(frameCount, pageSize), 4096);
        try {
            PmArea area = new PmArea(device, path, pageSize, storeId, frameCount);
            boolean reuse = loss == null && found.magic != 0 && expected.attached();
            if (reuse) {
                area.pmId = found.pmId;
                area.generation = found.generation;
                if (found.format == FORMAT_VERSION) {
                    // descriptors sit after the frames the file had: a grown file's table is elsewhere now
                    area.recoveryDeltas = found.frames == frameCount ? area.deltas
                            : new PmDeltaTable(device.segment(), tableOffset(found.frames, pageSize), pageSize,
                                    found.frames, device::persist);
                }
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
        final int format;
        final long frames;
        final UUID pmId;
        final long generation;

        Superblock(MemorySegment sb) {
            this.sb = sb;
            this.magic = sb.get(LONG, 0);
            this.format = sb.get(INT, 8);
            this.frames = sb.get(LONG, 16);
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
            if (magic == MAGIC && (format < OLDEST_UPGRADABLE_VERSION || format > FORMAT_VERSION)) {
                throw new ConfigurationException("PM file '" + path + "' has format " + format
                        + "; this build reads " + FORMAT_VERSION + " and upgrades " + OLDEST_UPGRADABLE_VERSION
                        + " to " + (FORMAT_VERSION - 1) + ": open it with the build that wrote it");
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
            long needed = format == FORMAT_VERSION ? fileBytes(fileFrames, pageSize) : (fileFrames + 1) * pageSize;
            if (fileFrames < expected.frames() || sizeBefore < needed) {
                return "was truncated to " + sizeBefore + " bytes (its superblock records " + fileFrames
                        + " frames of " + pageSize + " bytes" + (format == FORMAT_VERSION ? " and their delta table" : "")
                        + ")";
            }
            return null;
        }
    }

    /** Invalidates every frame, descriptor and redo record (a reused or reformatted file must not offer old images to recovery). */
    private void clearFrames() {
        file.asSlice(pageSize).fill((byte) 0);
        redo.clear();
        device.force();
    }

    /**
     * Makes this file the one the store depends on, with a generation one above {@code expected}'s:
     * writes the PM superblock first, then the block store's record, so a crash in between leaves a
     * PM file whose generation is one ahead, which the next open accepts.
     */
    void attach(BlockStore store, PmDependency expected) {
        assert durable : "far memory holds no durable copy for the block device to depend on";
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
        persister.persist(offset, pageSize);
        PageHeader.commit(frame);
        persister.persist(offset, PageHeader.SIZE);
    }

    /**
     * Updates frame {@code m}, the only durable copy of {@code pageId}, to the contents of the private
     * copy {@code r} sealed at {@code lsn} and {@code seq}, persisting only the cache lines that changed
     * ({@link PmRedoLog#update}). Returns the bytes persisted, or -1 if declined (nothing written: the
     * caller then seals {@code r} with {@link #sealDurably}).
     */
    long updateChangedLines(int m, int r, long pageId, long lsn, long seq) {
        if (!durable) {
            return copyInPlace(m, frames.asSlice((long) r * pageSize, pageSize), pageId, lsn, seq);
        }
        return redo.update(m, r, pageId, lsn, seq);
    }

    /**
     * {@link #updateChangedLines(int, int, long, long, long)} with the new contents in {@code source}
     * (a dirty DRAM copy of the page): the changed lines are copied into the free frame {@code r}
     * ({@link PmRedoLog#update(int, int, MemorySegment, long, long, long)}).
     */
    long updateChangedLines(int m, int r, MemorySegment source, long pageId, long lsn, long seq) {
        if (!durable) {
            return copyInPlace(m, source, pageId, lsn, seq);
        }
        return redo.update(m, r, source, pageId, lsn, seq);
    }

    /**
     * Far memory's update of frame {@code m}: no crash can observe it half done (nothing survives one),
     * so the new contents are copied over {@code m} and its header sealed, with no redo record. The
     * caller holds {@code m} exclusively. Returns the bytes stored.
     */
    private long copyInPlace(int m, MemorySegment source, long pageId, long lsn, long seq) {
        MemorySegment frame = frames.asSlice((long) m * pageSize, pageSize);
        PageHeader.copyPayload(source, frame);
        PageHeader.seal(frame, pageId, lsn, seq);
        return pageSize;
    }

    /** The delta-frame descriptors and the writers' per-frame state ({@link PmDeltaTable}). */
    PmDeltaTable deltas() {
        return deltas;
    }

    /**
     * The table as the file held it at open, for recovery to rebuild its delta frames from; null if the
     * file can hold none (new, reformatted, or of an older format).
     */
    PmDeltaTable recoveryDeltas() {
        return recoveryDeltas;
    }

    /**
     * Called by recovery once it has rebuilt or discarded every delta frame: clears the table it read
     * (every descriptor is dead now), which in a grown file lies where frames are now, so that they read
     * as never written. Before recovery scans the frames.
     */
    void finishDeltaRecovery() {
        if (recoveryDeltas != null && recoveryDeltas != deltas) {
            recoveryDeltas.clearAll();
        }
        recoveryDeltas = null;
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
        deltas.forget(f);
        PageHeader.invalidate(frames.asSlice((long) f * pageSize, pageSize));
        persistHeader(f);
    }

    /** Makes the header of frame {@code f} durable (after {@link PageHeader#invalidate}). */
    void persistHeader(int f) {
        persister.persist((long) (f + 1) * pageSize, PageHeader.SIZE);
    }

    void close() {
        if (device != null) {
            device.close();
        } else {
            farMemory.close();
        }
    }

}
