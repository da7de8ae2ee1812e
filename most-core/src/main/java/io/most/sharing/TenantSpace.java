package io.most.sharing;

import io.most.device.DeviceSlice;
import io.most.device.ForwardingDevice;
import io.most.device.IoOp;
import io.most.device.IoRequest;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * One tenant's space on the shared block device, as a device of its own: the bytes
 * {@code [start, start + capacity)} that {@link SharedDevices} assigned to it, a {@link DeviceSlice} of
 * the tenant's accounted and throttled view ({@link TenantDevice}). This is the whole of the isolation
 * and accounting a component opened as a tenant needs on the device side: a page store or cache is
 * handed this device and knows nothing of tenants; every access it makes is bounds-checked here (outside
 * the space: {@link TenantSpaceException}, before the slice translates it), then translated and charged
 * to its tenant.
 *
 * <p>{@link #close()} gives the space back to the set (the bytes stay: the next open of the same
 * tenant and space finds them) and leaves the shared device open. Thread-safe as the shared device is.
 */
final class TenantSpace extends ForwardingDevice {
    private final SharedDevices owner;
    private final String tenant;
    private final String space;
    private final long capacity;
    private volatile boolean open = true;

    TenantSpace(TenantDevice device, SharedDevices owner, String tenant, String space, long start, long capacity) {
        super(new DeviceSlice(device, start, capacity, tenant + "/" + space));
        this.owner = owner;
        this.tenant = tenant;
        this.space = space;
        this.capacity = capacity;
    }

    /** The tenant this space belongs to. */
    String tenant() {
        return tenant;
    }

    /** The space's name among its tenant's spaces. */
    String spaceName() {
        return space;
    }

    /** Whether this is a space of the tenant {@code tenantName} of {@code set}. */
    boolean belongsTo(SharedDevices set, String tenantName) {
        return owner == set && tenant.equals(tenantName);
    }

    @Override
    public void read(long offset, MemorySegment destination) {
        checkInside(IoOp.READ, offset, destination.byteSize());
        super.read(offset, destination);
    }

    @Override
    public void write(long offset, MemorySegment source) {
        checkInside(IoOp.WRITE, offset, source.byteSize());
        super.write(offset, source);
    }

    /**
     * Refused whole, before any request runs, if one request reaches outside the space; the first bad
     * request is the one named, so an unaligned one before it is left to the slice's own check.
     */
    @Override
    public void transferAll(List<IoRequest> requests) {
        int block = blockSize();
        for (int i = 0; i < requests.size(); i++) {
            IoRequest r = requests.get(i);
            if (r.offset() % block != 0 || r.length() % block != 0) {
                break;
            }
            try {
                checkInside(r.op(), r.offset(), r.length());
            } catch (TenantSpaceException e) {
                throw new TenantSpaceException("request " + i + " of a batch of " + requests.size() + ": "
                        + e.getMessage());
            }
        }
        super.transferAll(requests);
    }

    @Override
    public void discard(long offset, long length) {
        checkInside(IoOp.DISCARD, offset, length);
        super.discard(offset, length);
    }

    /** Gives the space back to its set; the shared device stays open for its owner to close. */
    @Override
    public void close() {
        if (open) {
            open = false;
            super.close(); // closes the slice only
            owner.release(this);
        }
    }

    /**
     * An access that reaches beyond the space is an isolation violation, named as one; the slice checks
     * the rest (alignment, an ordinary bad argument) as it does for any device.
     */
    private void checkInside(IoOp op, long offset, long length) {
        if (length > 0 && (offset < 0 || offset > capacity - length)) {
            throw new TenantSpaceException("tenant '" + tenant + "' may not " + op.tag() + " [" + offset + ", "
                    + (offset + length) + ") of its space '" + space + "': beyond its capacity " + capacity
                    + " bytes lie other tenants' bytes of the shared device");
        }
    }

    @Override
    public String toString() {
        return "TenantSpace[" + name() + " in " + inner() + "]";
    }
}
