package io.most.cache;

import io.most.device.BlockDevice;
import io.most.device.DeviceStats;
import io.most.device.IoOp;
import io.most.device.IoRequest;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** A {@link BlockDevice} that forwards everything to another and counts the reads it forwards. */
final class CountingDevice implements BlockDevice {
    private final BlockDevice delegate;
    private final AtomicLong reads = new AtomicLong();

    CountingDevice(BlockDevice delegate) {
        this.delegate = delegate;
    }

    /** Reads forwarded so far (single and batched alike). */
    long reads() {
        return reads.get();
    }

    @Override
    public String name() {
        return "counting " + delegate.name();
    }

    @Override
    public int blockSize() {
        return delegate.blockSize();
    }

    @Override
    public long capacity() {
        return delegate.capacity();
    }

    @Override
    public void read(long offset, MemorySegment destination) {
        reads.incrementAndGet();
        delegate.read(offset, destination);
    }

    @Override
    public void write(long offset, MemorySegment source) {
        delegate.write(offset, source);
    }

    @Override
    public void transferAll(List<IoRequest> requests) {
        reads.addAndGet(requests.stream().filter(r -> r.op() == IoOp.READ).count());
        delegate.transferAll(requests);
    }

    @Override
    public void force() {
        delegate.force();
    }

    @Override
    public DeviceStats stats() {
        return delegate.stats();
    }

    @Override
    public boolean isOpen() {
        return delegate.isOpen();
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public MemorySegment allocate(Arena arena, long bytes) {
        return delegate.allocate(arena, bytes);
    }
}
