package io.most.cache;

import io.most.device.BlockDevice;
import io.most.device.ForwardingDevice;
import io.most.device.IoOp;
import io.most.device.IoRequest;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** A device that forwards everything to another and counts the reads it forwards. */
final class CountingDevice extends ForwardingDevice {
    private final AtomicLong reads = new AtomicLong();

    CountingDevice(BlockDevice inner) {
        super(inner);
    }

    /** Reads forwarded so far (single and batched alike). */
    long reads() {
        return reads.get();
    }

    @Override
    public void read(long offset, MemorySegment destination) {
        reads.incrementAndGet();
        super.read(offset, destination);
    }

    @Override
    public void transferAll(List<IoRequest> requests) {
        reads.addAndGet(requests.stream().filter(r -> r.op() == IoOp.READ).count());
        super.transferAll(requests);
    }
}
