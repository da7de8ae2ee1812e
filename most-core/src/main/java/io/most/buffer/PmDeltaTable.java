package io.most.buffer;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Which lines of a PM frame are durable, for frames written over the block device's version of
 * their page ("delta frames"), so that a write of a page loaded clean into PM persists only the lines
 * it changed instead of the whole page.
 *
 * <p>A PM frame that holds the block device's version of its page (loaded or admitted clean, or
 * written back) was copied in without a persist, so none of its lines can be trusted after a power
 * loss; but the block device still holds all of them, and it cannot change while PM holds a newer
 * copy (a write-back of a newer DRAM copy invalidates the PM frame durably after it; the PM frame's
 * own write-back writes the version the frame names). So a write of such a frame goes to a private
 * frame {@code r}, and its seal persists only the lines that differ from the base plus a
 * <b>descriptor</b> of {@code r} in this table: page id, {@code r}'s write sequence, the block
 * device's write sequence it was based on ({@code 0}: a page never written there, all zeros) and the
 * bitmap of {@code r}'s durable lines. The descriptor is persisted before {@code r}'s commit word, so
 * every sealed delta frame has one; recovery ({@link PmRecovery}) reads the block device's image, and if
 * it is still the base copies the lines the bitmap does not name into the frame, checks the payload CRC
 * of the header (a wrong base, or damage, fails it and the frame is treated as damaged: reported,
 * never served), persists the whole frame and clears the descriptor. A block-device image at the
 * frame's sequence or newer supersedes the frame. A later write of a delta frame is another delta
 * frame over the same base, with the union of both bitmaps.
 *
 * <p>Layout: one descriptor per frame, {@link #descriptorBytes} each (one 64-byte line for pages up to
 * 20 KiB), after the frames in the PM file:
 * <pre>
 *  0  int   CRC32C of bytes [4, descriptorBytes)
 *  4  int   page id
 *  8  long  write sequence of the frame version it describes
 * 16  long  the block device's write sequence the other lines come from
 * 24  long[] bitmap of the durable lines (bit b of word w: line 64 w + b)
 * </pre>
 * A descriptor is only believed for a frame whose verified header names the same page and sequence,
 * so a stale one (the frame since sealed whole, or reused) is ignored; write sequences are never
 * reused.
 *
 * <p>Also keeps, in memory, each frame's state for the writers: the block device's sequence a clean
 * frame equals ({@link #setClean}), or the base and durable lines of a dirty delta frame. A frame's
 * state changes only under its exclusive latch (or its page lock and a shared latch, which exclude
 * every writer), whose acquire and release order these plain arrays.
 */
final class PmDeltaTable {
    /** No known base: the frame was sealed whole, or its contents may not equal the block device's. */
    static final long NO_BASE = -1;
    private static final int FIELDS = 24;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    /** A descriptor read back from the table at recovery. */
    record Descriptor(long pageId, long seq, long base, DirtyLines durable) {
    }

    private final MemorySegment file;
    private final long offset;
    private final int pageSize;
    private final int frames;
    private final PmRedoLog.Persister persister;
    /** False over far memory ({@link #stopTrackingBases}); set before the store is shared. */
    private boolean trackBases = true;
    private final int descriptorBytes;
    private final int words;
    private final long[] base;
    private final boolean[] delta;
    /**
     * Per frame: its durable lines while it is a delta frame; otherwise free for the thread that holds
     * the frame exclusively to fill with the lines of its next seal ({@link #linesOver}: no allocation
     * per write).
     */
    private final DirtyLines[] lines;

    /**
     * @param file      the whole PM mapping
     * @param offset    where the table starts in it
     * @param frames    frames it describes
     * @param persister makes ranges of {@code file} durable
     */
    PmDeltaTable(MemorySegment file, long offset, int pageSize, long frames, PmRedoLog.Persister persister) {
        this.file = file;
        this.offset = offset;
        this.pageSize = pageSize;
        this.frames = Math.toIntExact(frames);
        this.persister = persister;
        this.descriptorBytes = descriptorBytes(pageSize);
        this.words = new DirtyLines(pageSize).wordCount();
        this.base = new long[this.frames];
        java.util.Arrays.fill(base, NO_BASE);
        this.delta = new boolean[this.frames];
        this.lines = new DirtyLines[this.frames];
        for (int f = 0; f < this.frames; f++) {
            lines[f] = new DirtyLines(pageSize);
        }
    }

    /** Bytes of one descriptor: the fields and the line bitmap, rounded up to whole 64-byte lines. */
    static int descriptorBytes(int pageSize) {
        int bitmap = new DirtyLines(pageSize).wordCount() * 8;
        return (FIELDS + bitmap + DirtyLines.LINE - 1) / DirtyLines.LINE * DirtyLines.LINE;
    }

    /** Bytes the table of {@code frames} frames takes in the PM file: whole pages. */
    static long bytesFor(long frames, int pageSize) {
        long bytes = frames * descriptorBytes(pageSize);
        return (bytes + pageSize - 1) / pageSize * pageSize;
    }

    /** Where the table starts in the file. */
    long offset() {
        return offset;
    }

    // ---- in-memory state, for writers ------------------------------------------------------------

    /**
     * Makes {@link #setClean} record nothing, so no frame ever has a base and no delta frame is written:
     * for far memory, where a write persists nothing and writing only the changed lines saves nothing.
     */
    void stopTrackingBases() {
        trackBases = false;
    }

    /** Frame {@code f}, mapped clean, equals the block device's image of write sequence {@code blockSeq}. */
    void setClean(int f, long blockSeq) {
        base[f] = trackBases ? blockSeq : NO_BASE;
        delta[f] = false;
    }

    /** Frame {@code f} has no known base (sealed whole, freed, or its contents unknown). */
    void forget(int f) {
        base[f] = NO_BASE;
        delta[f] = false;
    }

    /** The block device's sequence frame {@code f} equals (clean) or is based on (delta), or {@link #NO_BASE}. */
    long base(int f) {
        return base[f];
    }

    /** Whether frame {@code f} is a delta frame: only {@link #durableLines} of it are durable in PM. */
    boolean isDelta(int f) {
        return delta[f];
    }

    /**
     * Fills and returns frame {@code r}'s line set for a delta frame {@code r} written over frame
     * {@code m} (whose base it inherits): the lines in which {@code r} differs from {@code m}, {@code m}'s
     * own durable lines if it is a delta frame (the rest of it is the base's), and line 0, the header's.
     * The caller holds both frames exclusively.
     */
    DirtyLines linesOver(int m, int r) {
        DirtyLines set = lines[r];
        set.clear();
        set.markDifferences(file.asSlice(frameOffset(m), pageSize), file.asSlice(frameOffset(r), pageSize),
                PageHeader.SIZE);
        set.mark(0);
        if (delta[m]) {
            set.addAll(lines[m]);
        }
        return set;
    }

    /**
     * Writes and persists the descriptor of frame {@code f}, about to be sealed for {@code pageId} at
     * {@code seq} with only {@code durable} lines durable over the block device's version {@code blockSeq},
     * and records the frame as a delta frame. The caller holds {@code f} exclusively and stores its
     * commit word only after this returns. Returns the bytes persisted.
     */
    long describe(int f, long pageId, long seq, long blockSeq, DirtyLines durable) {
        long at = descriptorOffset(f);
        file.set(INT, at + 4, (int) pageId);
        file.set(LONG, at + 8, seq);
        file.set(LONG, at + 16, blockSeq);
        for (int w = 0; w < words; w++) {
            file.set(LONG, at + FIELDS + 8L * w, durable.word(w));
            lines[f].setWord(w, durable.word(w));
        }
        file.set(INT, at, crc(at));
        persister.persist(at, descriptorBytes);
        base[f] = blockSeq;
        delta[f] = true;
        return descriptorBytes;
    }

    /**
     * Seals the copy {@code r} of frame {@code m} as a delta frame over the block device's version that
     * {@code m} equals or is based on ({@link #linesOver}, then {@link #seal}), unless that would persist
     * more than half the page: then nothing is written and -1 returned (the caller persists the whole
     * page instead). Returns the bytes persisted. The caller holds both frames exclusively.
     */
    long sealOver(int m, int r, long pageId, long lsn, long seq) {
        DirtyLines lines = linesOver(m, r);
        if (lines.count() > lines.lines() / 2) {
            return -1;
        }
        return seal(r, pageId, lsn, seq, base(m), lines);
    }

    /**
     * Seals frame {@code r} for {@code pageId} as a delta frame over the block device's version
     * {@code blockSeq}: writes its header fields (uncommitted), persists only {@code lines} of it (line 0,
     * the header's, must be among them), then its descriptor, then stores and persists the commit word.
     * A crash before the commit word leaves {@code r} unsealed (free); after it, {@link #rebuild} restores
     * the other lines from the block device. The caller holds {@code r} exclusively. Returns the bytes
     * persisted.
     */
    long seal(int r, long pageId, long lsn, long seq, long blockSeq, DirtyLines lines) {
        if (!lines.isDirty(0)) {
            throw new IllegalArgumentException("a delta seal of frame " + r + " must persist line 0, its header's");
        }
        long at = frameOffset(r);
        MemorySegment frame = file.asSlice(at, pageSize);
        PageHeader.prepareSeal(frame, pageId, lsn, seq);
        long persisted = PmRedoLog.persistLines(persister, at, lines);
        persisted += describe(r, pageId, seq, blockSeq, lines);
        PageHeader.commit(frame);
        persister.persist(at, PageHeader.SIZE);
        return persisted + PageHeader.SIZE;
    }

    // ---- recovery -----------------------------------------------------------------------------------

    /** What {@link #rebuild} made of a delta frame. */
    enum Rebuild {
        /** The block device holds the frame's version or a newer one: the frame is superseded. */
        SUPERSEDED,
        /** The frame verifies (its lines were completed from the base), is persisted whole, and is an ordinary frame now. */
        REBUILT,
        /** The frame does not verify: its base is gone or its durable lines were damaged. */
        BROKEN
    }

    /**
     * Frame {@code f}'s descriptor if {@code f} is a delta frame: its header verifies (the payload may
     * not: that is what the descriptor completes) and names the page and sequence the descriptor does;
     * otherwise null.
     */
    Descriptor describing(int f) {
        MemorySegment frame = file.asSlice(frameOffset(f), pageSize);
        PageHeader.Check check = PageHeader.check(frame);
        if (check != PageHeader.Check.VALID && check != PageHeader.Check.DAMAGED) {
            return null;
        }
        Descriptor d = read(f);
        return d != null && d.pageId() == PageHeader.pageId(frame) && d.seq() == PageHeader.seq(frame) ? d : null;
    }

    /**
     * Completes the delta frame {@code f} described by {@code d} from {@code blockImage}, the block
     * device's image of its page (class comment). On {@link Rebuild#REBUILT} the frame is persisted whole
     * and its descriptor cleared; on {@link Rebuild#SUPERSEDED} the descriptor is cleared and the caller
     * invalidates the frame; on {@link Rebuild#BROKEN} nothing changes. Single-threaded, at recovery.
     */
    Rebuild rebuild(int f, Descriptor d, MemorySegment blockImage) {
        MemorySegment frame = file.asSlice(frameOffset(f), pageSize);
        PageHeader.Check onDevice = PageHeader.check(blockImage);
        boolean ours = onDevice == PageHeader.Check.VALID && PageHeader.pageId(blockImage) == d.pageId();
        if (ours && PageHeader.seq(blockImage) >= d.seq()) {
            clear(f);
            return Rebuild.SUPERSEDED;
        }
        boolean isBase = d.base() == 0 ? onDevice == PageHeader.Check.NEVER_WRITTEN
                : ours && PageHeader.seq(blockImage) == d.base();
        if (PageHeader.check(frame) != PageHeader.Check.VALID) {
            if (!isBase) {
                return Rebuild.BROKEN;
            }
            copyUndurableLines(blockImage, frame, d.durable());
            if (PageHeader.check(frame) != PageHeader.Check.VALID) {
                return Rebuild.BROKEN;
            }
        } // else a process crash lost no line: the frame is whole already, but not yet durable as such
        persister.persist(frameOffset(f), pageSize);
        clear(f);
        return Rebuild.REBUILT;
    }

    /** Copies the payload bytes of the lines {@code durable} does not name from {@code from} into {@code to}. */
    private static void copyUndurableLines(MemorySegment from, MemorySegment to, DirtyLines durable) {
        for (int start = durable.nextClean(0); start < durable.lines(); ) {
            int end = durable.nextDirty(start);
            if (end < 0) {
                end = durable.lines();
            }
            long at = Math.max((long) start * DirtyLines.LINE, PageHeader.SIZE);
            MemorySegment.copy(from, at, to, at, (long) end * DirtyLines.LINE - at);
            start = durable.nextClean(end);
        }
    }

    /** Frame {@code f}'s descriptor as the table holds it, or null if there is none (or it fails its CRC). */
    Descriptor read(int f) {
        long at = descriptorOffset(f);
        if (file.get(INT, at) != crc(at)) {
            return null;
        }
        DirtyLines lines = new DirtyLines(pageSize);
        for (int w = 0; w < words; w++) {
            lines.setWord(w, file.get(LONG, at + FIELDS + 8L * w));
        }
        return new Descriptor(Integer.toUnsignedLong(file.get(INT, at + 4)), file.get(LONG, at + 8),
                file.get(LONG, at + 16), lines);
    }

    /** Clears frame {@code f}'s descriptor durably (its frame was rebuilt and persisted whole, or dropped). */
    void clear(int f) {
        long at = descriptorOffset(f);
        file.asSlice(at, descriptorBytes).fill((byte) 0);
        persister.persist(at, descriptorBytes);
    }

    /** Clears the whole table durably (after recovery consumed it, when the table moves). */
    void clearAll() {
        long bytes = bytesFor(frames, pageSize);
        file.asSlice(offset, bytes).fill((byte) 0);
        persister.persist(offset, bytes);
    }

    /** Where frame {@code f} starts in the file: frames follow the superblock page. */
    private long frameOffset(int f) {
        return (long) (f + 1) * pageSize;
    }

    private int crc(long at) {
        return Checksums.crc32c(file.asSlice(at + 4, descriptorBytes - 4));
    }

    private long descriptorOffset(int f) {
        if (f < 0 || f >= frames) {
            throw new IndexOutOfBoundsException("frame " + f + " outside 0.." + (frames - 1));
        }
        return offset + (long) f * descriptorBytes;
    }
}
