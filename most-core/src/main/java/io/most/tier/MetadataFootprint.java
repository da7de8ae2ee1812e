package io.most.tier;

/**
 * The in-memory metadata of a {@link TieredVolume} (MOST paper Table 3 counts 76 bytes per segment,
 * plus the subpage bitsets of mirrored segments).
 *
 * <p>Per segment: slot on each device ({@code int} x 2), the hotness word (read and write counters,
 * cooling clock, rewrite distance: one {@code long}), the reference to mirror state, a dirty bit for
 * the journal, a bit in one device's slot bitmap, and a share of the (at most
 * {@value SegmentTable#STRIPES}) lock stripes. Per mirrored segment: the mirror state object (write stamp, intent sequence, bits
 * reference) and its bit array of 2 bits per subpage. References count as 8 bytes and object headers
 * as 16, so the figures hold without compressed pointers too.
 *
 * @param segments                 logical segments
 * @param mirroredSegments         segments assumed mirrored
 * @param bytesPerSegment          metadata of every segment, in bytes (rounded up)
 * @param bytesPerMirroredSegment  extra metadata of a mirrored segment besides its subpage bits
 * @param subpageBitsPerMirroredSegment bytes of subpage bits of a mirrored segment
 * @param totalBytes               everything for {@code segments} with {@code mirroredSegments} mirrored
 */
public record MetadataFootprint(long segments, long mirroredSegments, int bytesPerSegment,
                                int bytesPerMirroredSegment, int subpageBitsPerMirroredSegment, long totalBytes) {

    private static final int REFERENCE = 8;
    private static final int OBJECT_HEADER = 16;
    /** A {@link StripeLock} (a StampedLock and its count of waiting writers) with its read and write lock views. */
    private static final int STRIPE_BYTES = 4 * OBJECT_HEADER + 4 * REFERENCE + 24;

    /**
     * The footprint of a volume of {@code logicalBytes} in segments of {@code segmentSize} with
     * subpages of {@code subpageSize}, a fraction {@code mirroredFraction} of whose segments are
     * mirrored.
     */
    public static MetadataFootprint estimate(long logicalBytes, int segmentSize, int subpageSize,
                                             double mirroredFraction) {
        long segments = Math.ceilDiv(logicalBytes, segmentSize);
        long mirrored = (long) Math.ceil(segments * mirroredFraction);
        return of(segments, mirrored, segmentSize / subpageSize);
    }

    static MetadataFootprint of(long segments, long mirrored, int subpagesPerSegment) {
        long stripes = SegmentTable.stripesFor(segments);
        double perSegment = 4 + 4 // slots
                + 8 // hotness word
                + REFERENCE // mirror state
                + 1 / 8.0 // dirty bit
                + 1 / 8.0 // slot bitmap bit (slots = segments + 1)
                + (double) stripes * STRIPE_BYTES / Math.max(1, segments);
        int bitsBytes = 8 * MirrorState.wordsFor(subpagesPerSegment);
        int perMirrored = OBJECT_HEADER + REFERENCE + 8 + 8 + 4 // MirrorState: header, bits ref, stamp, intent, count
                + OBJECT_HEADER; // the bit array's header
        perMirrored = (int) Codec.roundUp(perMirrored, 8);
        long total = (long) Math.ceil(perSegment * segments) + mirrored * (perMirrored + (long) bitsBytes);
        return new MetadataFootprint(segments, mirrored, (int) Math.ceil(perSegment), perMirrored, bitsBytes, total);
    }

    /** Average bytes per segment, mirrored bits included. */
    public double averageBytesPerSegment() {
        return segments == 0 ? 0 : (double) totalBytes / segments;
    }
}
