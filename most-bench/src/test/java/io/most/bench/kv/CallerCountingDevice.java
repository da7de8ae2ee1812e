package io.most.bench.kv;

import io.most.device.BlockDevice;
import io.most.device.ForwardingDevice;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A device that counts the reads, writes and forces made by one thread (the replay's, which stands for
 * a request thread) and passes everything to the device it wraps: the work a cache does off the request
 * path (a background region seal) is not counted.
 */
final class CallerCountingDevice extends ForwardingDevice {
    private final Thread caller;
    final AtomicLong reads = new AtomicLong();
    final AtomicLong writes = new AtomicLong();
    final AtomicLong forces = new AtomicLong();

    CallerCountingDevice(BlockDevice inner, Thread caller) {
        super(inner);
        this.caller = caller;
    }

    private void count(AtomicLong counter) {
        if (Thread.currentThread() == caller) {
            counter.incrementAndGet();
        }
    }

    @Override
    public void read(long offset, MemorySegment destination) {
        count(reads);
        super.read(offset, destination);
    }

    @Override
    public void write(long offset, MemorySegment source) {
        count(writes);
        super.write(offset, source);
    }

    @Override
    public void force() {
        count(forces);
        super.force();
    }
}
