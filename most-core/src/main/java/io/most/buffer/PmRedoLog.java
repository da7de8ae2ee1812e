package io.most.buffer;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * In-place PM updates that persist only the cache lines they changed, as Spitfire does, without ever
 * leaving the only durable copy of a page torn.
 *
 * <p>A write of a PM frame {@code m} that is persisted in every line (it holds the only durable copy
 * of its page, or the block device's version after a write-back) goes to a private frame {@code r}
 * (a copy of {@code m}; or the changed lines are copied into {@code r} from a DRAM copy being
 * written back). Instead of sealing all of {@code r} (persisting the whole
 * page), {@link #update} finds the lines {@code r} and {@code m} differ in ({@link DirtyLines}) and:
 * <ol>
 *   <li>persists those lines of {@code r}: the record's data, at their own offsets;</li>
 *   <li>writes a <b>redo record</b> into a slot of the PM superblock page (page id, target frame
 *       {@code m}, record frame {@code r}, new LSN, write sequence and payload CRC, the line bitmap)
 *       with a zero commit word, persists it, then stores the commit word (magic and the record's
 *       CRC) with one aligned 8-byte store and persists it;</li>
 *   <li>copies the lines into {@code m}, seals {@code m}'s header for the new version and persists
 *       those lines (the header's among them; while the record is live their order does not matter);</li>
 *   <li>clears the record's commit word and persists it.</li>
 * </ol>
 * Why a crash anywhere leaves the page intact ({@link #replay} runs before PM recovery's scan):
 * before the record's commit word is durable, {@code m} was not touched, so it holds the previous
 * version, intact; {@code r} never had a commit word, so it reads as a free frame. Once the commit
 * word is durable, the lines it names are durable in {@code r} (persisted before it), and {@code m}'s
 * other lines are those of the previous version, which were durable before the update began (a
 * frame newer than the block device was always sealed with every line persisted: whole, or by an
 * earlier replayable record); so replay rebuilds the new version in {@code m} whatever part of step 3
 * reached PM, and seals it with the record's payload CRC: if {@code m}'s unchanged lines were not
 * the previous version after all (media damage), the frame is sealed {@code DAMAGED} and reported,
 * never served. A record is retired only after {@code m} is sealed durably, and before {@code m}'s
 * latch is released, so at most one live record names a frame.
 *
 * <p>Cost of an update that changes {@code k} lines (line 0, the header's, always among them):
 * {@code 2k} lines persisted plus the record's 2-3 lines, in {@code 2j + 3} persist calls for
 * {@code j} runs of adjacent lines, instead of a whole page. An update
 * that changes more than half the page, or finds every slot busy, is declined ({@code -1}) and the
 * caller seals the whole private copy out of place as before.
 *
 * <p>Thread-safe: slots are claimed with a CAS; a claimed slot, and the frames the caller passes
 * (which it holds exclusively), belong to one thread.
 */
final class PmRedoLog {
    /** Where the slots start in the superblock page (the superblock takes the first 68 bytes). */
    static final int AREA_OFFSET = 128;
    private static final int MAX_SLOTS = 16;
    private static final int MAGIC = 0x4D52_0001; // 'M','R', record format 1
    private static final int FIELDS = 64; // the first line of a slot: commit word and fields
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    /** Makes a byte range of the PM file durable (cache-line write-back and fence, or msync). */
    interface Persister {
        void persist(long offset, long length);
    }

    private final MemorySegment file;
    private final int pageSize;
    private final long frameCount;
    private final Persister persister;
    private final int slotBytes;
    private final int slots;
    private final DirtyLines[] dirty;
    private final AtomicInteger busy = new AtomicInteger();

    /**
     * @param file       the whole PM mapping: the superblock page, then {@code frameCount} frames
     * @param persister  makes ranges of {@code file} durable
     */
    PmRedoLog(MemorySegment file, int pageSize, long frameCount, Persister persister) {
        this.file = file;
        this.pageSize = pageSize;
        this.frameCount = frameCount;
        this.persister = persister;
        int bitmapBytes = (pageSize / DirtyLines.LINE + 63) / 64 * 8;
        this.slotBytes = FIELDS + (bitmapBytes + DirtyLines.LINE - 1) / DirtyLines.LINE * DirtyLines.LINE;
        this.slots = Math.max(0, Math.min(MAX_SLOTS, (pageSize - AREA_OFFSET) / slotBytes));
        this.dirty = new DirtyLines[slots];
        for (int s = 0; s < slots; s++) {
            dirty[s] = new DirtyLines(pageSize);
        }
    }

    /** Slots, each the home of one update in progress. */
    int slots() {
        return slots;
    }

    /**
     * Updates frame {@code m} to the contents of frame {@code r} (the caller's private copy of it),
     * sealed for {@code pageId} at {@code lsn} and write sequence {@code seq}, persisting only the
     * changed lines through a redo record (class comment). The caller holds both frames exclusively,
     * and every line of {@code m} is durable. Returns the bytes persisted, or -1 if it declined
     * (more than half the page changed, or every slot is busy): then nothing was written and the
     * caller seals {@code r} whole.
     */
    long update(int m, int r, long pageId, long lsn, long seq) {
        return update(m, r, frame(r), pageId, lsn, seq);
    }

    /**
     * {@link #update(int, int, long, long, long)} with the new contents in {@code source} (a frame of
     * another pool, e.g. a dirty DRAM copy being written back) rather than already in {@code r}: only
     * the changed lines are copied into {@code r} (a free frame the caller holds exclusively, whose
     * header is left as it is: without a commit word it never reads as a page), the rest of it is never
     * read. {@code source} is only read.
     */
    long update(int m, int r, MemorySegment source, long pageId, long lsn, long seq) {
        int slot = claim();
        if (slot < 0) {
            return -1;
        }
        long at = slotOffset(slot);
        DirtyLines lines = dirty[slot];
        MemorySegment target = frame(m);
        MemorySegment record = frame(r);
        boolean live = false;
        boolean applied = false;
        int payloadCrc = 0;
        try {
            lines.clear();
            lines.markDifferences(target, source, PageHeader.SIZE);
            lines.mark(0); // the header line: new LSN, sequence and CRCs
            if (lines.count() > lines.lines() / 2) {
                return -1;
            }
            payloadCrc = PageHeader.payloadCrc(source);
            if (source.address() != record.address()) {
                copyLines(source, record, lines); // the record's data, where replay will look for it
            }
            long persisted = persistLines(r, lines);
            writeRecord(at, pageId, payloadCrc, lsn, seq, m, r, lines);
            persister.persist(at, slotBytes);
            VarHandle.storeStoreFence(); // the fields land before the word that vouches for them
            file.set(LONG, at, commitWord(at));
            live = true;
            persister.persist(at, 8);
            // from here replay can rebuild m: the order in which m's lines reach PM no longer matters
            apply(target, record, lines, pageId, lsn, seq, payloadCrc);
            applied = true;
            persisted += persistLines(m, lines);
            file.set(LONG, at, 0L); // retired: m holds the new version durably
            live = false;
            persister.persist(at, 8);
            return persisted + slotBytes + 2 * 8;
        } catch (RuntimeException | Error e) {
            if (live) {
                // a persist failed: leave m whole (the new version, in memory) and the record retired,
                // so that the private frame can be reused without a replay ever reading it
                if (!applied) {
                    apply(target, record, lines, pageId, lsn, seq, payloadCrc);
                }
                file.set(LONG, at, 0L);
                try {
                    persister.persist(at, 8);
                } catch (RuntimeException again) {
                    e.addSuppressed(again);
                }
            }
            throw e;
        } finally {
            release(slot);
        }
    }

    /**
     * Completes every committed record (a crash struck between its commit and its retirement): copies
     * its lines into its target frame, seals that frame with the record's fields, persists it, and
     * retires the record. A target that already holds the record's version or a newer one of its page
     * is left alone. Single-threaded, before PM recovery scans the frames. Returns the records applied.
     */
    int replay() {
        int applied = 0;
        DirtyLines lines = new DirtyLines(pageSize);
        for (int slot = 0; slot < slots; slot++) {
            long at = slotOffset(slot);
            if (file.get(INT, at) != MAGIC || file.get(INT, at + 4) != recordCrc(at)) {
                continue; // free, retired, or never committed
            }
            long pageId = Integer.toUnsignedLong(file.get(INT, at + 8));
            int payloadCrc = file.get(INT, at + 12);
            long lsn = file.get(LONG, at + 16);
            long seq = file.get(LONG, at + 24);
            int m = file.get(INT, at + 32);
            int r = file.get(INT, at + 36);
            if (m >= 0 && m < frameCount && r >= 0 && r < frameCount && m != r && !alreadyApplied(m, pageId, seq)) {
                for (int w = 0; w < lines.wordCount(); w++) {
                    lines.setWord(w, file.get(LONG, at + FIELDS + 8L * w));
                }
                MemorySegment target = frame(m);
                apply(target, frame(r), lines, pageId, lsn, seq, payloadCrc);
                persister.persist(frameOffset(m), pageSize);
                applied++;
            }
            file.set(LONG, at, 0L);
            persister.persist(at, 8);
        }
        return applied;
    }

    /** Clears every slot (the PM file is being reformatted: no record may outlive its frames). */
    void clear() {
        if (slots > 0) {
            file.asSlice(AREA_OFFSET, (long) slots * slotBytes).fill((byte) 0);
            persister.persist(AREA_OFFSET, (long) slots * slotBytes);
        }
    }

    private boolean alreadyApplied(int m, long pageId, long seq) {
        MemorySegment target = frame(m);
        return PageHeader.check(target) == PageHeader.Check.VALID && PageHeader.pageId(target) == pageId
                && PageHeader.seq(target) >= seq;
    }

    /** Copies the record's lines into the target and seals it (in memory) with the record's fields. */
    private static void apply(MemorySegment target, MemorySegment record, DirtyLines lines, long pageId, long lsn,
                              long seq, int payloadCrc) {
        target.set(LONG, 0, 0L); // uncommitted while its lines change
        VarHandle.storeStoreFence();
        copyLines(record, target, lines); // the header is written below
        PageHeader.prepareSeal(target, pageId, lsn, seq, payloadCrc);
        PageHeader.commit(target);
    }

    /** Copies the payload bytes of the marked lines (never the header's bytes of line 0). */
    private static void copyLines(MemorySegment from, MemorySegment to, DirtyLines lines) {
        for (int line = lines.nextDirty(0); line >= 0; line = lines.nextDirty(line + 1)) {
            long at = Math.max((long) line * DirtyLines.LINE, PageHeader.SIZE);
            MemorySegment.copy(from, at, to, at, (long) (line + 1) * DirtyLines.LINE - at);
        }
    }

    /** Persists the frame's dirty lines, one call per run of adjacent lines; returns the bytes. */
    private long persistLines(int f, DirtyLines lines) {
        return persistLines(persister, frameOffset(f), lines);
    }

    /**
     * Persists the marked lines of the frame at {@code base} in the PM file, one call per run of
     * adjacent lines; returns the bytes.
     */
    static long persistLines(Persister persister, long base, DirtyLines lines) {
        long bytes = 0;
        for (int start = lines.nextDirty(0); start >= 0; ) {
            int end = lines.nextClean(start);
            long length = (long) (end - start) * DirtyLines.LINE;
            persister.persist(base + (long) start * DirtyLines.LINE, length);
            bytes += length;
            start = lines.nextDirty(end);
        }
        return bytes;
    }

    private void writeRecord(long at, long pageId, int payloadCrc, long lsn, long seq, int m, int r, DirtyLines lines) {
        file.asSlice(at, slotBytes).fill((byte) 0);
        file.set(INT, at + 8, (int) pageId);
        file.set(INT, at + 12, payloadCrc);
        file.set(LONG, at + 16, lsn);
        file.set(LONG, at + 24, seq);
        file.set(INT, at + 32, m);
        file.set(INT, at + 36, r);
        for (int w = 0; w < lines.wordCount(); w++) {
            file.set(LONG, at + FIELDS + 8L * w, lines.word(w));
        }
    }

    private long commitWord(long at) {
        long magic = Integer.toUnsignedLong(MAGIC);
        long crc = Integer.toUnsignedLong(recordCrc(at));
        return LITTLE_ENDIAN ? magic | crc << 32 : magic << 32 | crc;
    }

    private int recordCrc(long at) {
        return Checksums.crc32c(file.asSlice(at + 8, slotBytes - 8));
    }

    private int claim() {
        while (true) {
            int held = busy.get();
            int free = ~held & (int) ((1L << slots) - 1);
            if (free == 0) {
                return -1;
            }
            int slot = Integer.numberOfTrailingZeros(free);
            if (busy.compareAndSet(held, held | 1 << slot)) {
                return slot;
            }
        }
    }

    private void release(int slot) {
        busy.getAndUpdate(held -> held & ~(1 << slot));
    }

    private long slotOffset(int slot) {
        return AREA_OFFSET + (long) slot * slotBytes;
    }

    private long frameOffset(int f) {
        return (long) (f + 1) * pageSize;
    }

    private MemorySegment frame(int f) {
        return file.asSlice(frameOffset(f), pageSize);
    }
}
