package io.most.buffer;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * What {@link FrameCursor} and {@link FramePin} share: each pool's metadata array, its one memory
 * segment and the mappings, held in fields of the reader itself (so a hit loads no store or pool
 * object), the frame the reader is on, and the typed reads of that frame's payload, addressed in the
 * pool's segment. A reader on no page reads past every segment's end, so the segment's own bounds
 * check refuses the read and the reader names why ({@link #noPageHint}).
 */
abstract sealed class FrameReader permits FrameCursor, FramePin {
    /** {@link #base} on no page: past any pool segment, so a read fails its bounds check. */
    static final long NO_BASE = Long.MAX_VALUE / 2;

    final PageAccess store;
    final int[] dramMapping;
    final long[] dramRecords;
    final MemorySegment dramMemory;
    /** Null without PM, as are the two below. */
    final int[] pmMapping;
    final long[] pmRecords;
    final MemorySegment pmMemory;
    final long frameBytes;
    final long payloadBytes;

    // the page the reader is on
    boolean inPm;
    /** The frame's record index in its pool's metadata array. */
    int record = FrameRecords.record(0);
    /** Where the frame's payload starts in its pool's segment, or {@link #NO_BASE}. */
    long base = NO_BASE;

    FrameReader(PageAccess store, FramePool dram, int[] dramMapping, FramePool pm, int[] pmMapping,
                long payloadBytes) {
        this.store = store;
        this.dramMapping = dramMapping;
        this.dramRecords = dram.records();
        this.dramMemory = dram.readOnlyMemory();
        this.pmMapping = pm == null ? null : pmMapping;
        this.pmRecords = pm == null ? null : pm.records();
        this.pmMemory = pm == null ? null : pm.readOnlyMemory();
        this.frameBytes = dram.frameSize;
        this.payloadBytes = payloadBytes;
    }

    /** Puts the reader on frame {@code f} of the DRAM or PM pool. */
    final void onFrame(boolean pm, int f) {
        inPm = pm;
        record = FrameRecords.record(f);
        base = f * frameBytes;
    }

    /** What the error of a read on no page tells the caller to do. */
    abstract String noPageHint();

    /** The public name of the reader, for its errors and toString: the interface it implements. */
    abstract String kind();

    /**
     * The 8 bytes (native byte order, any alignment) at payload offset {@code offset} of the page the
     * reader is on.
     *
     * @throws IndexOutOfBoundsException if they are not all inside the payload
     * @throws IllegalStateException     if the reader is on no page
     */
    public final long getLong(long offset) {
        long at = address(offset, Long.BYTES);
        try {
            return memory().get(ValueLayout.JAVA_LONG_UNALIGNED, at);
        } catch (IndexOutOfBoundsException e) {
            throw noPage(e);
        }
    }

    /** {@link #getLong} for an {@code int} (4 bytes, native byte order, any alignment). */
    public final int getInt(long offset) {
        long at = address(offset, Integer.BYTES);
        try {
            return memory().get(ValueLayout.JAVA_INT_UNALIGNED, at);
        } catch (IndexOutOfBoundsException e) {
            throw noPage(e);
        }
    }

    /** {@link #getLong} for one byte. */
    public final byte getByte(long offset) {
        long at = address(offset, Byte.BYTES);
        try {
            return memory().get(ValueLayout.JAVA_BYTE, at);
        } catch (IndexOutOfBoundsException e) {
            throw noPage(e);
        }
    }

    /**
     * Copies {@code length} payload bytes from {@code offset} into {@code destination} at {@code index}
     * (e.g. a key to compare).
     *
     * @throws IndexOutOfBoundsException if the bytes are not all inside the payload, or do not fit the destination
     * @throws IllegalStateException     if the reader is on no page
     */
    public final void copy(long offset, byte[] destination, int index, int length) {
        if (base == NO_BASE) {
            throw noPage(null); // checked first: the copy's own bounds errors are the caller's to see
        }
        if (length < 0 || length > payloadBytes) { // keeps payloadBytes - length below non-negative
            throw outsidePayload(offset, length);
        }
        MemorySegment.copy(memory(), ValueLayout.JAVA_BYTE, address(offset, length), destination, index, length);
    }

    private MemorySegment memory() {
        return inPm ? pmMemory : dramMemory;
    }

    /**
     * Where {@code size} bytes at payload offset {@code offset} lie in the pool's segment; on no page,
     * past the segment's end (the read then fails its bounds check, and {@link #noPage} names why).
     */
    private long address(long offset, int size) {
        // unsigned: a negative offset is a huge one, so one compare rejects both ends
        if (Long.compareUnsigned(offset, payloadBytes - size) > 0) {
            throw outsidePayload(offset, size);
        }
        return base + offset;
    }

    private IndexOutOfBoundsException outsidePayload(long offset, int size) {
        return new IndexOutOfBoundsException(size + " bytes at offset " + offset + " are outside the page payload of "
                + payloadBytes + " bytes");
    }

    /** The error of a read on no page; or {@code e}, the segment's own, if the reader is on a page. */
    private RuntimeException noPage(IndexOutOfBoundsException e) {
        if (base == NO_BASE) {
            return new IllegalStateException(kind() + " is on no page: " + noPageHint());
        }
        return e;
    }

    @Override
    public final String toString() {
        return kind() + "[" + (base == NO_BASE ? "no page" : (inPm ? "pm" : "dram") + " frame " + base / frameBytes) + "]";
    }
}
