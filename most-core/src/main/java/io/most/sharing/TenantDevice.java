package io.most.sharing;

import io.most.device.BlockDevice;
import io.most.device.DeviceProfile;
import io.most.device.ForwardingDevice;
import io.most.device.IoOp;
import io.most.device.IoRequest;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * One tenant's view of the shared block device: each read and write first passes the tenant's
 * throttle, then is charged {@code 1 / MaxIOPS} of its kind and size on the device's profile (the same
 * cost model as PM, so a 4 KiB write costs what the device says relative to a 64 KiB read, not its
 * bytes). {@link #close()} leaves the shared device open: its owner closes it.
 */
final class TenantDevice extends ForwardingDevice {
    private final DeviceProfile profile;
    private final Throttle throttle;
    private final LongAdder costPicos = new LongAdder();

    TenantDevice(BlockDevice shared, DeviceProfile profile, Throttle throttle) {
        super(shared);
        this.profile = profile;
        this.throttle = throttle;
    }

    @Override
    public void read(long offset, MemorySegment destination) {
        long cost = cost(IoOp.READ, destination.byteSize());
        throttle.admit(IoOp.READ, cost);
        super.read(offset, destination);
        costPicos.add(cost);
    }

    @Override
    public void write(long offset, MemorySegment source) {
        long cost = cost(IoOp.WRITE, source.byteSize());
        throttle.admit(IoOp.WRITE, cost);
        super.write(offset, source);
        costPicos.add(cost);
    }

    /**
     * Each request passes the throttle and is charged as a single read or write would be; then the
     * batch goes to the shared device whole, so its queue still sees it (the inherited forward would skip
     * the throttle and the charge).
     */
    @Override
    public void transferAll(List<IoRequest> requests) {
        long charged = 0;
        for (IoRequest r : requests) {
            long cost = cost(r.op(), r.length());
            throttle.admit(r.op(), cost);
            charged += cost;
        }
        super.transferAll(requests);
        costPicos.add(charged);
    }

    /** A tenant's view never closes the device the other tenants still use. */
    @Override
    public void close() {
    }

    /** Cost units this tenant used on the device so far. */
    long costPicos() {
        return costPicos.sum();
    }

    /** {@code 1 / MaxIOPS} of an operation, in picoseconds of the whole device. */
    long cost(IoOp op, long bytes) {
        return bytes == 0 ? 0 : Math.round(1e12 / profile.maxIops(op, bytes));
    }
}
