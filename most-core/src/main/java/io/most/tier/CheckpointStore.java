package io.most.tier;

import io.most.device.BlockDevice;
import io.most.device.DeviceIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.Lock;
import java.util.zip.CRC32C;

/**
 * The two checkpoint slots on the performance device. A checkpoint is the state of every segment
 * (see {@link SegmentCodec}) plus where journal replay starts. It is written to the slot not in use:
 * body first, then — after the data devices are forced — a header block with the body's length and
 * CRC, then a force, then a read-back that checks both CRCs, because the previous checkpoint and the
 * journal behind it are given up only once this one is known to be intact. Recovery takes the valid
 * slot with the higher epoch.
 */
final class CheckpointStore {
    static final long MAGIC = 0x5450_4B43_5453_4F4DL; // "MOSTCKPT"
    private static final int CHUNK = 1 << 20;

    private final BlockDevice device;
    private final long offset;
    private final long slotBytes;
    private final long salt;
    private final int blockSize;
    private final SegmentCodec codec;

    /** A valid checkpoint found on the device. */
    record Header(int slot, long epoch, long replaySeq, long replayPosition, int segments, long bodyBytes,
                  int bodyCrc) {
    }

    CheckpointStore(BlockDevice device, long offset, long slotBytes, long salt, SegmentCodec codec) {
        this.device = device;
        this.offset = offset;
        this.slotBytes = slotBytes;
        this.salt = salt;
        this.blockSize = device.blockSize();
        this.codec = codec;
    }

    /**
     * Writes a checkpoint of {@code table} into {@code slot}. Each segment's state is taken under its
     * exclusive lock (so no request on it is in flight) and its dirty mark is cleared at that moment;
     * {@code beforeHeader} runs after the body is written and before the header (it forces the data
     * devices, so that all data the snapshot describes is durable before the checkpoint counts).
     *
     * @throws DeviceIOException if a write fails or the read-back does not match
     */
    void write(int slot, long epoch, long replaySeq, long replayPosition, SegmentTable table, Runnable beforeHeader) {
        long slotOffset = offset + slot * slotBytes;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment chunk = device.allocate(arena, Math.min(CHUNK, Codec.roundUp(slotBytes, blockSize)));
            MemorySegment state = arena.allocate(codec.maxStateBytes());
            CRC32C crc = new CRC32C();
            long written = 0;
            int used = 0;
            for (int s = 0; s < table.size(); s++) {
                Lock lock = table.lock(s).writeLock();
                int length;
                lock.lock();
                try {
                    length = (int) codec.putState(state, 0, table.slot(s, Tier.PERFORMANCE), table.slot(s, Tier.CAPACITY),
                            table.mirror(s));
                    table.clearDirty(s);
                } finally {
                    lock.unlock();
                }
                for (int copied = 0; copied < length; ) {
                    int n = (int) Math.min(length - copied, chunk.byteSize() - used);
                    MemorySegment.copy(state, copied, chunk, used, n);
                    used += n;
                    copied += n;
                    if (used == chunk.byteSize()) {
                        Codec.update(crc, chunk);
                        device.write(slotOffset + blockSize + written, chunk);
                        written += used;
                        used = 0;
                    }
                }
            }
            if (used > 0) {
                Codec.update(crc, chunk.asSlice(0, used));
                MemorySegment tail = chunk.asSlice(0, Codec.roundUp(used, blockSize));
                tail.asSlice(used).fill((byte) 0);
                device.write(slotOffset + blockSize + written, tail);
                written += used;
            }
            long bodyBytes = written;
            if (blockSize + bodyBytes > slotBytes) {
                throw new IllegalStateException("checkpoint of " + bodyBytes + " bytes exceeds its slot of " + slotBytes);
            }
            int bodyCrc = (int) crc.getValue();
            beforeHeader.run();
            MemorySegment header = device.allocate(arena, blockSize);
            header.set(Codec.LONG, 0, MAGIC);
            header.set(Codec.LONG, 8, salt);
            header.set(Codec.LONG, 16, epoch);
            header.set(Codec.LONG, 24, replaySeq);
            header.set(Codec.LONG, 32, replayPosition);
            header.set(Codec.INT, 40, table.size());
            header.set(Codec.INT, 44, bodyCrc);
            header.set(Codec.LONG, 48, bodyBytes);
            header.set(Codec.INT, 56, Codec.crc(header.asSlice(0, 56)));
            device.write(slotOffset, header);
            device.force();
            Header back = readHeader(slot, arena);
            if (back == null || back.epoch() != epoch || back.bodyBytes() != bodyBytes
                    || readBody(back, arena) == null) {
                throw new DeviceIOException("checkpoint " + epoch + " written to slot " + slot + " of device '"
                        + device.name() + "' does not read back intact; the previous checkpoint stays in use");
            }
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
                || header.get(Codec.INT, 56) != Codec.crc(header.asSlice(0, 56))) {
            return null;
        }
        long bodyBytes = header.get(Codec.LONG, 48);
        if (bodyBytes < 0 || blockSize + bodyBytes > slotBytes) {
            return null;
        }
        return new Header(slot, header.get(Codec.LONG, 16), header.get(Codec.LONG, 24), header.get(Codec.LONG, 32),
                header.get(Codec.INT, 40), bodyBytes, header.get(Codec.INT, 44));
    }

    private MemorySegment readBody(Header h, Arena arena) {
        MemorySegment body = device.allocate(arena, Math.max(blockSize, Codec.roundUp(h.bodyBytes(), blockSize)));
        device.read(offset + h.slot() * slotBytes + blockSize, body);
        MemorySegment exact = body.asSlice(0, h.bodyBytes());
        return h.bodyCrc() == Codec.crc(exact) ? exact : null;
    }
}
