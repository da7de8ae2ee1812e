package io.most.bench.kv;

import io.most.device.BlockDevice;
import io.most.device.DeviceStats;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A device that counts the reads, writes and forces made by one thread (the replay's, which stands for
 * a request thread) and passes everything to the device it wraps: the work a cache does off the request
 * path (a background region seal) is not counted.
 */
final class CallerCountingDevice implements BlockDevice {
    private final BlockDevice inner;
    private final Thread caller;
    final AtomicLong reads = new AtomicLong();
    final AtomicLong writes = new AtomicLong();
    final AtomicLong forces = new AtomicLong();

    CallerCountingDevice(BlockDevice inner, Thread caller) {
        this.inner = inner;
        this.caller = caller;
    }

    private void count(AtomicLong counter) {
        if (Thread.currentThread() == caller) {
            counter.incrementAndGet();
        }
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public int blockSize() {
        return inner.blockSize();
    }

    @Override
    public long capacity() {
        return inner.capacity();
    }

    @Override
    public void read(long offset, MemorySegment destination) {
        count(reads);
        inner.read(offset, destination);
    }

    @Override
    public void write(long offset, MemorySegment source) {
        count(writes);
        inner.write(offset, source);
    }

    @Override
    public void force() {
        count(forces);
        inner.force();
    }

    @Override
    public DeviceStats stats() {
        return inner.stats();
    }

    @Override
    public boolean isOpen() {
        return inner.isOpen();
    }

    @Override
    public void close() {
        inner.close();
    }

    @Override
    public MemorySegment allocate(Arena arena, long bytes) {
        return inner.allocate(arena, bytes);
    }
}
