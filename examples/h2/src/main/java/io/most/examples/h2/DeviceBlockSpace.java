package io.most.examples.h2;

import io.most.device.BlockDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link BlockSpace} on a MOST {@link BlockDevice}: block {@code i} is the device's bytes
 * {@code [i * blockSize, (i + 1) * blockSize)}. Whole-block runs go to the device in one request;
 * a partial write reads the block, patches it and writes it back under a striped lock, so two partial
 * writes of one block never lose each other's bytes.
 */
final class DeviceBlockSpace implements BlockSpace {
    private static final int STRIPES = 64;

    private final BlockDevice device;
    private final int blockBytes;
    private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];
    /** One aligned block per thread for read-modify-write (H2 uses few threads; 4 KiB each). */
    private final ThreadLocal<MemorySegment> scratch;

    DeviceBlockSpace(BlockDevice device) {
        this.device = device;
        this.blockBytes = device.blockSize();
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ReentrantLock();
        }
        this.scratch = ThreadLocal.withInitial(() -> device.allocate(Arena.ofAuto(), blockBytes));
    }

    /** The device under this space. */
    BlockDevice device() {
        return device;
    }

    @Override
    public int blockBytes() {
        return blockBytes;
    }

    @Override
    public long blockCount() {
        return device.capacity() / blockBytes;
    }

    @Override
    public void read(long block, int offset, ByteBuffer dst) {
        checkWithin(offset, dst.remaining());
        if (offset == 0 && dst.remaining() == blockBytes) {
            readRun(block, dst);
            return;
        }
        MemorySegment buffer = scratch.get();
        device.read(block * blockBytes, buffer);
        int n = dst.remaining();
        dst.put(buffer.asSlice(offset, n).asByteBuffer());
    }

    @Override
    public void write(long block, int offset, ByteBuffer src) {
        checkWithin(offset, src.remaining());
        if (offset == 0 && src.remaining() == blockBytes) {
            writeRun(block, src);
            return;
        }
        ReentrantLock lock = stripe(block);
        lock.lock();
        try {
            MemorySegment buffer = scratch.get();
            device.read(block * blockBytes, buffer);
            int n = src.remaining();
            buffer.asSlice(offset, n).asByteBuffer().put(src);
            device.write(block * blockBytes, buffer);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void readRun(long first, ByteBuffer dst) {
        int n = dst.remaining();
        device.read(first * blockBytes, MemorySegment.ofBuffer(dst));
        dst.position(dst.position() + n);
    }

    @Override
    public void writeRun(long first, ByteBuffer src) {
        int n = src.remaining();
        long blocks = n / blockBytes;
        // Lock the stripes of the run in index order (never two orders, so no deadlock) so that no
        // read-modify-write of one of its blocks can write an older image over it.
        boolean[] held = new boolean[STRIPES];
        for (long b = first; b < first + Math.min(blocks, STRIPES); b++) {
            held[Math.floorMod(b, STRIPES)] = true;
        }
        for (int i = 0; i < STRIPES; i++) {
            if (held[i]) {
                stripes[i].lock();
            }
        }
        try {
            device.write(first * blockBytes, MemorySegment.ofBuffer(src));
            src.position(src.position() + n);
        } finally {
            for (int i = STRIPES - 1; i >= 0; i--) {
                if (held[i]) {
                    stripes[i].unlock();
                }
            }
        }
    }

    @Override
    public void claim(long block) {
        // a device has no allocation state: the volume zero-fills what it does not overwrite
    }

    @Override
    public boolean tracksAllocation() {
        return false;
    }

    @Override
    public void release(long block) {
        // nothing to do: the volume's own map is the only allocation state
    }

    @Override
    public boolean inUse(long block) {
        return true;
    }

    @Override
    public void force() {
        device.force();
    }

    @Override
    public String describe() {
        return "block device " + device.name() + " (" + blockBytes + "-byte blocks, " + device.capacity() + " bytes)";
    }

    @Override
    public void close() {
        device.close();
    }

    private ReentrantLock stripe(long block) {
        return stripes[Math.floorMod(block, STRIPES)];
    }

    private void checkWithin(int offset, int length) {
        if (offset < 0 || length < 0 || offset + length > blockBytes) {
            throw new IllegalArgumentException("range [" + offset + ", " + (offset + length) + ") is not within a "
                    + blockBytes + "-byte block");
        }
    }
}
