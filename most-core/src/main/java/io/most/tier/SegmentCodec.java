package io.most.tier;

import io.most.tier.policy.Tier;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Encodes a segment's durable state — its slot on each device and, if mirrored, its subpage bits —
 * the same way in checkpoints and journal records: {@code int perfSlot, int capSlot} and, when both
 * are set, the bit words. Journal records add a type byte and the segment number in front.
 */
final class SegmentCodec {
    /** Journal record: a segment's state. */
    static final byte SEGMENT = 1;
    /** Journal record: a mirrored segment's copies may diverge from here on (see {@code MetadataLog}). */
    static final byte INTENT = 2;
    static final int INTENT_BYTES = 5;

    private final int words;

    SegmentCodec(int subpagesPerSegment) {
        this.words = MirrorState.wordsFor(subpagesPerSegment);
    }

    /** Bytes of a state without the record header. */
    int stateBytes(boolean mirrored) {
        return 8 + (mirrored ? 8 * words : 0);
    }

    /** The largest state. */
    int maxStateBytes() {
        return stateBytes(true);
    }

    /** Writes the state of a segment at {@code offset}; returns the offset after it. */
    long putState(MemorySegment target, long offset, int perfSlot, int capSlot, MirrorState mirror) {
        target.set(Codec.INT, offset, perfSlot);
        target.set(Codec.INT, offset + 4, capSlot);
        if (mirror != null) {
            mirror.writeBits(target, offset + 8);
            return offset + 8 + 8L * words;
        }
        return offset + 8;
    }

    /** Writes a SEGMENT record; returns the offset after it. */
    long putSegment(MemorySegment target, long offset, int segment, int perfSlot, int capSlot, MirrorState mirror) {
        target.set(ValueLayout.JAVA_BYTE, offset, SEGMENT);
        target.set(Codec.INT, offset + 1, segment);
        return putState(target, offset + 5, perfSlot, capSlot, mirror);
    }

    /** Writes an INTENT record; returns the offset after it. */
    long putIntent(MemorySegment target, long offset, int segment) {
        target.set(ValueLayout.JAVA_BYTE, offset, INTENT);
        target.set(Codec.INT, offset + 1, segment);
        return offset + INTENT_BYTES;
    }

    /**
     * Reads a state at {@code offset} and applies it to {@code segment} of {@code table}; returns the
     * offset after it. Recovery only (no locks).
     */
    long applyState(MemorySegment source, long offset, SegmentTable table, int segment) {
        int perf = source.get(Codec.INT, offset);
        int cap = source.get(Codec.INT, offset + 4);
        if (perf < SegmentTable.NONE || cap < SegmentTable.NONE) {
            throw new IllegalStateException("segment " + segment + " has a negative slot");
        }
        if (perf != SegmentTable.NONE && cap != SegmentTable.NONE) {
            MirrorState m = table.newMirror();
            m.readBits(source, offset + 8);
            table.mapMirrored(segment, perf, cap, m);
            return offset + 8 + 8L * words;
        }
        if (perf != SegmentTable.NONE) {
            table.mapTiered(segment, Tier.PERFORMANCE, perf);
        } else if (cap != SegmentTable.NONE) {
            table.mapTiered(segment, Tier.CAPACITY, cap);
        } else {
            table.unmap(segment);
        }
        return offset + 8;
    }
}
