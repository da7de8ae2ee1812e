package io.most.cache;

import io.most.device.BlockDevice;
import io.most.device.ForwardingDevice;
import io.most.device.IoOp;
import io.most.device.IoRequest;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A device that forwards everything to another and counts the reads and writes it forwards, and the batches;
 * one made by {@link #keepingOpen} leaves closing to the test, which reopens a cache on it.
 */
final class CountingDevice extends ForwardingDevice {
    private final AtomicLong reads = new AtomicLong();
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong singleReads = new AtomicLong();
    private final AtomicLong batches = new AtomicLong();
    private final boolean closes;

    CountingDevice(BlockDevice inner) {
        this(inner, true);
    }

    private CountingDevice(BlockDevice inner, boolean closes) {
        super(inner);
        this.closes = closes;
    }

    /** A counting view of {@code inner} whose close leaves {@code inner} open. */
    static CountingDevice keepingOpen(BlockDevice inner) {
        return new CountingDevice(inner, false);
    }

    /** Reads forwarded so far (single and batched alike). */
    long reads() {
        return reads.get();
    }

    /** Writes forwarded so far (single and batched alike). */
    long writes() {
        return writes.get();
    }

    /** Reads forwarded one at a time ({@link #read}) so far. */
    long singleReads() {
        return singleReads.get();
    }

    /** Batches ({@link #transferAll} calls) forwarded so far, of any operation. */
    long batches() {
        return batches.get();
    }

    /** Starts counting again from zero. */
    void reset() {
        reads.set(0);
        writes.set(0);
        singleReads.set(0);
        batches.set(0);
    }

    @Override
    public void read(long offset, MemorySegment destination) {
        reads.incrementAndGet();
        singleReads.incrementAndGet();
        super.read(offset, destination);
    }

    @Override
    public void write(long offset, MemorySegment source) {
        writes.incrementAndGet();
        super.write(offset, source);
    }

    @Override
    public void transferAll(List<IoRequest> requests) {
        batches.incrementAndGet();
        reads.addAndGet(requests.stream().filter(r -> r.op() == IoOp.READ).count());
        writes.addAndGet(requests.stream().filter(r -> r.op() == IoOp.WRITE).count());
        super.transferAll(requests);
    }

    @Override
    public void close() {
        if (closes) {
            super.close();
        }
    }
}
