package io.most.tier;

import io.most.tier.policy.Tier;

import io.most.device.BlockDevice;
import io.most.device.DeviceIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.StampedLock;
import java.util.function.IntConsumer;
import java.util.function.IntUnaryOperator;
import java.util.zip.CRC32C;

/**
 * The two checkpoint slots on the performance device. A checkpoint is the state of every segment
 * (see {@link SegmentCodec}, in the order of {@link Header#forEachSegment}) plus where journal replay
 * starts. It is written to the slot not in use:
 * body first, then — after the data devices are forced — a header block with the body's length and
 * CRC, then a force, then a read-back that checks both CRCs, because the previous checkpoint and the
 * journal behind it are given up only once this one is known to be intact. Recovery takes the valid
 * slot with the higher epoch.
 */
final class CheckpointStore {
    static final long MAGIC = 0x5450_4B43_5453_4F4DL; // "MOSTCKPT"
    /** Opens the heat section after the segment states: "HEAT". */
    static final int HEAT_MAGIC = 0x5441_4548;
    /** Bytes per segment in the heat section ({@link HotnessTracker#export}). */
    static final int HEAT_BYTES = 4;
    private static final int CHUNK = 1 << 20;

    private final BlockDevice device;
    private final long offset;
    private final long slotBytes;
    private final long salt;
    private final int blockSize;
    private final SegmentCodec codec;
    private final IntUnaryOperator heat;

    /** A valid checkpoint found on the device; its body lists segments stripe by stripe. */
    record Header(int slot, long epoch, long replaySeq, long replayPosition, int segments, long bodyBytes,
                  int bodyCrc, int stride) {

        /** Passes the segment numbers to {@code action} in the order the body lists them. */
        void forEachSegment(IntConsumer action) {
            for (int stripe = 0; stripe < Math.min(stride, segments); stripe++) {
                for (int s = stripe; s < segments; s += stride) {
                    action.accept(s);
                }
            }
        }
    }

    /**
     * @param heat each segment's exported heat ({@link HotnessTracker#export}), saved after the states
     *             so that a restarted volume knows its hot set (a hint: read without locks)
     */
    CheckpointStore(BlockDevice device, long offset, long slotBytes, long salt, SegmentCodec codec,
                    IntUnaryOperator heat) {
        this.device = device;
        this.offset = offset;
        this.slotBytes = slotBytes;
        this.salt = salt;
        this.blockSize = device.blockSize();
        this.codec = codec;
        this.heat = heat;
    }

    /**
     * Writes a checkpoint of {@code table} into {@code slot}. The states are taken one lock stripe at
     * a time ({@link #snapshot}), and their dirty marks are cleared at that moment; the body therefore
     * lists segments stripe by stripe ({@code s, s + stride, s + 2·stride, ...} for each stripe
     * {@code s}), and the header records the stride. {@code beforeHeader} runs after the body is
     * written and before the header (it forces the data devices, so that all data the snapshot
     * describes is durable before the checkpoint counts).
     *
     * @throws DeviceIOException if a write fails or the read-back does not match
     */
    void write(int slot, long epoch, long replaySeq, long replayPosition, SegmentTable table, Runnable beforeHeader) {
        long slotOffset = offset + slot * slotBytes;
        int stride = table.stripeCount();
        try (Arena arena = Arena.ofConfined()) {
            BodyWriter body = new BodyWriter(slotOffset + blockSize,
                    device.allocate(arena, Math.min(CHUNK, Codec.roundUp(slotBytes, blockSize))));
            MemorySegment states = arena.allocate((long) codec.maxStateBytes() * Math.ceilDiv(table.size(), stride));
            for (int stripe = 0; stripe < Math.min(stride, table.size()); stripe++) {
                long length = snapshot(table, stripe, states);
                body.append(states.asSlice(0, length));
            }
            appendHeat(body, table.size(), states);
            body.finish();
            if (blockSize + body.written > slotBytes) {
                throw new IllegalStateException("checkpoint of " + body.written + " bytes exceeds its slot of " + slotBytes);
            }
            beforeHeader.run();
            MemorySegment header = device.allocate(arena, blockSize);
            header.set(Codec.LONG, 0, MAGIC);
            header.set(Codec.LONG, 8, salt);
            header.set(Codec.LONG, 16, epoch);
            header.set(Codec.LONG, 24, replaySeq);
            header.set(Codec.LONG, 32, replayPosition);
            header.set(Codec.INT, 40, table.size());
            header.set(Codec.INT, 44, (int) body.crc.getValue());
            header.set(Codec.LONG, 48, body.written);
            header.set(Codec.INT, 56, stride);
            header.set(Codec.INT, 60, Codec.crc(header.asSlice(0, 60)));
            device.write(slotOffset, header);
            device.force();
            Header back = readHeader(slot, arena);
            if (back == null || back.epoch() != epoch || back.bodyBytes() != body.written
                    || readBody(back, arena) == null) {
                throw new DeviceIOException("checkpoint " + epoch + " written to slot " + slot + " of device '"
                        + device.name() + "' does not read back intact; the previous checkpoint stays in use");
            }
        }
    }

    /**
     * Writes the states of stripe {@code stripe}'s segments to {@code states}; returns their length.
     *
     * <p>First without the lock, as a {@link StampedLock} optimistic read: foreground reads and writes
     * hold the stripe shared while they wait for the devices, and on a saturated device an exclusive
     * lock waited behind them for every stripe in turn, tens of seconds all told, with the metadata
     * log's lock held and intents queued behind it. Map changes take the lock
     * exclusively, so a stamp that validates saw none of them. Subpage bits change under the shared
     * lock, as the commit path reads them: each dirty mark is cleared before its state is read, so a
     * change the snapshot misses is marked again and reaches the journal. A write to a mirrored segment
     * still in flight may have passed its intent check against the previous replay start (the new one
     * is set before the snapshot); its divergence would then be covered by no replayed intent, so such
     * a stripe, like one whose stamp fails, is taken under the exclusive lock as before, which waits
     * for the write. A writer calls {@link MirrorState#beginWrite} before its intent check, so it
     * either shows here as in flight or sees the new replay start and records a new intent.
     */
    private long snapshot(SegmentTable table, int stripe, MemorySegment states) {
        StampedLock lock = table.stripe(stripe);
        long stamp = lock.tryOptimisticRead();
        if (stamp != 0) {
            long length = putStates(table, stripe, states, true);
            if (length >= 0 && lock.validate(stamp)) {
                return length;
            }
        }
        long exclusive = lock.writeLock();
        try {
            return putStates(table, stripe, states, false);
        } finally {
            lock.unlockWrite(exclusive);
        }
    }

    /**
     * Clears the dirty mark and writes the state of each segment of {@code stripe}; returns the length
     * written, or -1 if {@code optimistic} and a write to one of its mirrored segments is in flight.
     */
    private long putStates(SegmentTable table, int stripe, MemorySegment states, boolean optimistic) {
        long length = 0;
        for (int s = stripe; s < table.size(); s += table.stripeCount()) {
            table.clearDirty(s);
            MirrorState mirror = table.mirror(s);
            if (optimistic && mirror != null && MirrorState.writesInFlight(mirror.stamp())) {
                return -1;
            }
            length = codec.putState(states, length, table.slot(s, Tier.PERFORMANCE), table.slot(s, Tier.CAPACITY),
                    mirror);
        }
        return length;
    }

    /**
     * Appends the heat section — {@code HEAT_MAGIC, segments}, then {@link #HEAT_BYTES} per segment in
     * segment order — if the slot has room for it. The slot is sized for the states of the most
     * mirrored segments the devices can hold plus the heat; a volume formatted before heat was saved
     * has no room reserved for it and gets the section only while enough of that space is unused.
     * Recovery treats a missing section as all segments cold. {@code scratch} holds at least one
     * stripe's states, so at least {@code HEAT_BYTES} times a stripe's segments.
     */
    private void appendHeat(BodyWriter body, int segments, MemorySegment scratch) {
        long bytes = 8 + (long) HEAT_BYTES * segments;
        if (blockSize + body.written + body.used + bytes > slotBytes) {
            return;
        }
        MemorySegment head = scratch.asSlice(0, 8);
        head.set(Codec.INT, 0, HEAT_MAGIC);
        head.set(Codec.INT, 4, segments);
        body.append(head);
        int perChunk = (int) Math.min(segments, scratch.byteSize() / HEAT_BYTES);
        for (int from = 0; from < segments; from += perChunk) {
            int n = Math.min(perChunk, segments - from);
            for (int i = 0; i < n; i++) {
                scratch.set(Codec.INT, (long) i * HEAT_BYTES, heat.applyAsInt(from + i));
            }
            body.append(scratch.asSlice(0, (long) n * HEAT_BYTES));
        }
    }

    /**
     * Reads the heat section at {@code position} of a loaded body into {@code restore} (segment,
     * exported heat); returns false, restoring nothing, if the body has none.
     */
    static boolean readHeat(MemorySegment body, long position, int segments, HeatSink restore) {
        if (body.byteSize() - position < 8 + (long) HEAT_BYTES * segments
                || body.get(Codec.INT, position) != HEAT_MAGIC || body.get(Codec.INT, position + 4) != segments) {
            return false;
        }
        for (int s = 0; s < segments; s++) {
            restore.accept(s, body.get(Codec.INT, position + 8 + (long) HEAT_BYTES * s));
        }
        return true;
    }

    /** Receives one segment's saved heat. */
    interface HeatSink {
        void accept(int segment, int exported);
    }

    /** Streams the body to the device in chunks, computing its CRC. */
    private final class BodyWriter {
        final CRC32C crc = new CRC32C();
        final long start;
        final MemorySegment chunk;
        long written;
        int used;

        BodyWriter(long start, MemorySegment chunk) {
            this.start = start;
            this.chunk = chunk;
        }

        void append(MemorySegment bytes) {
            for (long copied = 0; copied < bytes.byteSize(); ) {
                int n = (int) Math.min(bytes.byteSize() - copied, chunk.byteSize() - used);
                MemorySegment.copy(bytes, copied, chunk, used, n);
                used += n;
                copied += n;
                if (used == chunk.byteSize()) {
                    flush();
                }
            }
        }

        void finish() {
            if (used > 0) {
                flush();
            }
        }

        private void flush() {
            MemorySegment data = chunk.asSlice(0, used);
            Codec.update(crc, data);
            MemorySegment blocks = chunk.asSlice(0, Codec.roundUp(used, blockSize));
            blocks.asSlice(used).fill((byte) 0);
            device.write(start + written, blocks);
            written += used;
            used = 0;
        }
    }

    /** The valid checkpoint with the highest epoch and its body, or null if neither slot is valid. */
    Loaded readBest(Arena arena) {
        Header a = readHeader(0, arena);
        Header b = readHeader(1, arena);
        Header first = a == null ? b : b == null ? a : a.epoch() >= b.epoch() ? a : b;
        Header second = first == a ? b : a;
        for (Header h : new Header[] {first, second}) {
            if (h != null) {
                MemorySegment body = readBody(h, arena);
                if (body != null) {
                    return new Loaded(h, body);
                }
            }
        }
        return null;
    }

    /** A checkpoint and its body. */
    record Loaded(Header header, MemorySegment body) {
    }

    private Header readHeader(int slot, Arena arena) {
        MemorySegment header = device.allocate(arena, blockSize);
        device.read(offset + slot * slotBytes, header);
        if (header.get(Codec.LONG, 0) != MAGIC || header.get(Codec.LONG, 8) != salt
                || header.get(Codec.INT, 60) != Codec.crc(header.asSlice(0, 60))) {
            return null;
        }
        long bodyBytes = header.get(Codec.LONG, 48);
        int stride = header.get(Codec.INT, 56);
        if (bodyBytes < 0 || blockSize + bodyBytes > slotBytes || stride < 1) {
            return null;
        }
        return new Header(slot, header.get(Codec.LONG, 16), header.get(Codec.LONG, 24), header.get(Codec.LONG, 32),
                header.get(Codec.INT, 40), bodyBytes, header.get(Codec.INT, 44), stride);
    }

    private MemorySegment readBody(Header h, Arena arena) {
        MemorySegment body = device.allocate(arena, Math.max(blockSize, Codec.roundUp(h.bodyBytes(), blockSize)));
        device.read(offset + h.slot() * slotBytes + blockSize, body);
        MemorySegment exact = body.asSlice(0, h.bodyBytes());
        return h.bodyCrc() == Codec.crc(exact) ? exact : null;
    }
}
