package io.most.tier;

import io.most.device.BlockDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.zip.CRC32C;

/**
 * The append-only metadata journal: a ring of batches in a region of the performance device.
 *
 * <p><b>Batch.</b> A header — magic, the volume's salt, sequence number, record count, payload length,
 * CRC-32C of header and payload — then the records, padded to whole blocks. Every batch starts on a
 * fresh block and never straddles the end of the region (it moves to the start instead), so writing
 * one never rewrites a block that holds an earlier, durable batch: a torn write can only damage
 * itself. Sequence numbers grow by one per batch across the life of the volume.
 *
 * <p><b>Positions</b> are virtual: they only grow, and {@code v % regionBytes} is the place in the
 * region. Batches from {@link #liveStart()} (the newest checkpoint's replay start) to
 * {@link #head()} are live; a batch is only written where it does not overwrite them.
 *
 * <p><b>Failure.</b> If a batch write or its force fails, the batch may be torn, so replay from the
 * current checkpoint would stop there: the journal is marked {@link #poisoned()} and the volume takes
 * a checkpoint before it appends anything more. Not thread-safe: the caller serialises (it holds the
 * metadata commit lock).
 */
final class Journal {
    static final long MAGIC = 0x4C4E_524A_5453_4F4DL; // "MOSTJRNL"
    static final int HEADER = 40;
    private static final long MAX_PAYLOAD = 1 << 20;

    private final BlockDevice device;
    private final long regionOffset;
    private final long regionBytes;
    private final int blockSize;
    private final long salt;
    private final MemorySegment staging;
    private final MemorySegment payload;
    private long head;
    private long liveStart;
    private long nextSeq = 1;
    private boolean poisoned;
    /** Written under the metadata log's lock, read without it (statistics must not wait for a checkpoint). */
    private volatile long batches;
    private volatile long bytes;

    Journal(BlockDevice device, long regionOffset, long regionBytes, long salt, Arena arena) {
        this.device = device;
        this.regionOffset = regionOffset;
        this.regionBytes = regionBytes;
        this.blockSize = device.blockSize();
        this.salt = salt;
        long size = Math.max(blockSize, Codec.roundUp(Math.min(regionBytes / 4, MAX_PAYLOAD + HEADER), blockSize));
        this.staging = device.allocate(arena, size);
        this.payload = staging.asSlice(HEADER, size - HEADER);
    }

    /** Where the next batch's records go: up to {@link #payloadCapacity()} bytes. */
    MemorySegment payload() {
        return payload;
    }

    int payloadCapacity() {
        return (int) payload.byteSize();
    }

    /** Continues after recovery (or format) at this position. */
    void resume(long seq, long headPosition, long liveStartPosition) {
        this.nextSeq = seq;
        this.head = headPosition;
        this.liveStart = liveStartPosition;
        this.poisoned = false;
    }

    long nextSeq() {
        return nextSeq;
    }

    long head() {
        return head;
    }

    long liveStart() {
        return liveStart;
    }

    long regionBytes() {
        return regionBytes;
    }

    /** Bytes between the replay start of the newest checkpoint and the head. */
    long usedBytes() {
        return head - liveStart;
    }

    boolean poisoned() {
        return poisoned;
    }

    long batches() {
        return batches;
    }

    long bytesWritten() {
        return bytes;
    }

    /** Whether a batch of {@code payloadBytes} fits without overwriting live batches. */
    boolean fits(int payloadBytes) {
        long length = batchBytes(payloadBytes);
        return startOf(head, length) + length - liveStart <= regionBytes;
    }

    /**
     * Writes the first {@code payloadBytes} of {@link #payload()} holding {@code records} records as
     * the next batch and forces the device. Returns the batch's sequence number. The caller checked
     * {@link #fits}. If the write or force fails, the journal is {@link #poisoned()}.
     */
    long append(int payloadBytes, int records) {
        long length = batchBytes(payloadBytes);
        long start = startOf(head, length);
        long seq = nextSeq;
        staging.asSlice(HEADER + payloadBytes, length - HEADER - payloadBytes).fill((byte) 0);
        staging.set(Codec.LONG, 0, MAGIC);
        staging.set(Codec.LONG, 8, salt);
        staging.set(Codec.LONG, 16, seq);
        staging.set(Codec.INT, 24, records);
        staging.set(Codec.INT, 28, payloadBytes);
        staging.set(Codec.INT, 36, 0);
        staging.set(Codec.INT, 32, crc(staging, payloadBytes));
        try {
            device.write(regionOffset + start % regionBytes, staging.asSlice(0, length));
            device.force();
        } catch (RuntimeException e) {
            poisoned = true;
            throw e;
        } finally {
            // success or not, the next batch goes after this one with the next number
            head = start + length;
            nextSeq = seq + 1;
        }
        batches = batches + 1; // one writer: the metadata log's lock
        bytes = bytes + length;
        return seq;
    }

    /** A checkpoint now covers everything before {@code position}: that space may be reused. */
    void release(long position) {
        liveStart = position;
        poisoned = false;
    }

    private long batchBytes(int payloadBytes) {
        return Codec.roundUp(HEADER + (long) payloadBytes, blockSize);
    }

    /** Where a batch of {@code length} bytes goes if the head is at {@code v}: at v, or at the next lap. */
    private long startOf(long v, long length) {
        long inRegion = v % regionBytes;
        return inRegion + length > regionBytes ? v + regionBytes - inRegion : v;
    }

    private static int crc(MemorySegment batch, int payloadBytes) {
        CRC32C crc = new CRC32C();
        Codec.update(crc, batch.asSlice(0, 32));
        Codec.update(crc, batch.asSlice(HEADER, payloadBytes));
        return (int) crc.getValue();
    }

    /** Receives the batches found by {@link #replay}. */
    interface BatchConsumer {
        void accept(long seq, MemorySegment payload, int records);
    }

    /** Where replay ended: the next sequence number and the position after the last valid batch. */
    record End(long nextSeq, long position, long batches) {
    }

    /**
     * Reads the batches that follow {@code seq} at {@code position}, in order, until one is missing,
     * torn or out of sequence, and passes each to {@code consumer}.
     */
    static End replay(BlockDevice device, long regionOffset, long regionBytes, long salt, long seq, long position,
                      BatchConsumer consumer) {
        int blockSize = device.blockSize();
        long start = position;
        long count = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment first = device.allocate(arena, blockSize);
            while (position - start < regionBytes) {
                MemorySegment batch = readBatch(device, regionOffset, regionBytes, salt, seq, position, first, arena);
                if (batch == null) {
                    long lap = Codec.roundUp(position, regionBytes);
                    if (lap == position || lap - start >= regionBytes) {
                        break;
                    }
                    batch = readBatch(device, regionOffset, regionBytes, salt, seq, lap, first, arena);
                    if (batch == null) {
                        break;
                    }
                    position = lap;
                }
                int records = batch.get(Codec.INT, 24);
                int payloadBytes = batch.get(Codec.INT, 28);
                consumer.accept(seq, batch.asSlice(HEADER, payloadBytes), records);
                position += batch.byteSize();
                seq++;
                count++;
            }
        }
        return new End(seq, position, count);
    }

    /** The batch {@code seq} at {@code position}, or null if it is not there intact. */
    private static MemorySegment readBatch(BlockDevice device, long regionOffset, long regionBytes, long salt,
                                           long seq, long position, MemorySegment first, Arena arena) {
        long inRegion = position % regionBytes;
        if (inRegion + first.byteSize() > regionBytes) {
            return null;
        }
        device.read(regionOffset + inRegion, first);
        if (first.get(Codec.LONG, 0) != MAGIC || first.get(Codec.LONG, 8) != salt || first.get(Codec.LONG, 16) != seq) {
            return null;
        }
        int payloadBytes = first.get(Codec.INT, 28);
        long length = Codec.roundUp(HEADER + (long) payloadBytes, first.byteSize());
        if (payloadBytes < 0 || inRegion + length > regionBytes) {
            return null;
        }
        MemorySegment batch = first;
        if (length > first.byteSize()) {
            batch = device.allocate(arena, length);
            device.read(regionOffset + inRegion, batch);
        }
        return batch.get(Codec.INT, 32) == crc(batch, payloadBytes) ? batch.asSlice(0, length) : null;
    }
}
