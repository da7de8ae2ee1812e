package io.most.device;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A volatile block device in off-heap memory: for tests, and as the fast backing store of an
 * {@link EmulatedDevice} when only the service model matters. {@link #force()} does nothing;
 * contents vanish on {@link #close()}. A {@link #discard discarded} block reads as zeros.
 */
public final class MemoryDevice extends AbstractBlockDevice {
    private final Arena arena = Arena.ofShared();
    private final MemorySegment memory;

    /** A device named "memory" with 4 KiB blocks. */
    public MemoryDevice(long capacity) {
        this("memory", 4096, capacity);
    }

    public MemoryDevice(String name, int blockSize, long capacity) {
        super(name, blockSize, capacity);
        this.memory = arena.allocate(capacity, blockSize);
    }

    @Override
    protected void doRead(long offset, MemorySegment destination) {
        MemorySegment.copy(memory, offset, destination, 0, destination.byteSize());
    }

    @Override
    protected void doWrite(long offset, MemorySegment source) {
        MemorySegment.copy(source, 0, memory, offset, source.byteSize());
    }

    /** Zeroes the range: memory has nothing to free, and zeros are what a trimmed SSD usually returns. */
    @Override
    protected void doDiscard(long offset, long length) {
        memory.asSlice(offset, length).fill((byte) 0);
    }

    @Override
    protected void doForce() {
        // volatile by definition
    }

    @Override
    protected void doClose() {
        arena.close();
    }
}
