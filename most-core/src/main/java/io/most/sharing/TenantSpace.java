package io.most.sharing;

import io.most.device.BlockDevice;
import io.most.device.DeviceStats;
import io.most.device.IoOp;
import io.most.device.IoRequest;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * One tenant's space on the shared block device, as a device of its own: the bytes
 * {@code [start, start + capacity)} that {@link SharedDevices} assigned to it, reached through the
 * tenant's accounted and throttled view ({@link TenantDevice}). This is the whole of the isolation and
 * accounting a component opened as a tenant needs on the device side: a page store or cache is handed
 * this device and knows nothing of tenants, every access it makes is translated, bounds-checked
 * (outside the space: {@link TenantSpaceException}) and charged to its tenant.
 *
 * <p>{@link #close()} gives the space back to the set (the bytes stay: the next open of the same
 * tenant and space finds them) and leaves the shared device open. Thread-safe as the shared device is.
 */
final class TenantSpace implements BlockDevice {
    private final TenantDevice device;
    private final SharedDevices owner;
    private final String tenant;
    private final String space;
    private final long start;
    private final long capacity;
    private volatile boolean open = true;

    TenantSpace(TenantDevice device, SharedDevices owner, String tenant, String space, long start, long capacity) {
        this.device = device;
        this.owner = owner;
        this.tenant = tenant;
        this.space = space;
        this.start = start;
        this.capacity = capacity;
    }

    @Override
    public String name() {
        return tenant + "/" + space;
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

    /** Where the space starts on the shared device. */
    long start() {
        return start;
    }

    @Override
    public int blockSize() {
        return device.blockSize();
    }

    @Override
    public long capacity() {
        return capacity;
    }

    @Override
    public void read(long offset, MemorySegment destination) {
        device.read(translate(IoOp.READ, offset, destination.byteSize()), destination);
    }

    @Override
    public void write(long offset, MemorySegment source) {
        device.write(translate(IoOp.WRITE, offset, source.byteSize()), source);
    }

    @Override
    public void transferAll(List<IoRequest> requests) {
        List<IoRequest> moved = new ArrayList<>(requests.size());
        // checked whole before any request runs, as the contract says
        for (int i = 0; i < requests.size(); i++) {
            IoRequest r = requests.get(i);
            try {
                moved.add(new IoRequest(r.op(), translate(r.op(), r.offset(), r.length()), r.buffer()));
            } catch (TenantSpaceException e) {
                throw new TenantSpaceException("request " + i + " of a batch of " + requests.size() + ": "
                        + e.getMessage());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("request " + i + " of a batch of " + requests.size() + ": "
                        + e.getMessage(), e);
            }
        }
        device.transferAll(moved);
    }

    @Override
    public void discard(long offset, long length) {
        device.discard(translate(IoOp.DISCARD, offset, length), length);
    }

    @Override
    public void force() {
        checkOpen();
        device.force();
    }

    /** The shared device's statistics (every tenant's operations); the tenant's own use is its cost units. */
    @Override
    public DeviceStats stats() {
        return device.stats();
    }

    @Override
    public boolean isOpen() {
        return open && device.isOpen();
    }

    /** Gives the space back to its set; the shared device stays open for its owner to close. */
    @Override
    public void close() {
        if (open) {
            open = false;
            owner.release(this);
        }
    }

    @Override
    public MemorySegment allocate(Arena arena, long bytes) {
        return device.allocate(arena, bytes);
    }

    /**
     * The shared device's offset of an access checked against this space: alignment first (an
     * {@link IllegalArgumentException} as on any device), then the space's bounds.
     */
    private long translate(IoOp op, long offset, long length) {
        checkOpen();
        int block = device.blockSize();
        if (offset % block != 0 || length <= 0 || length % block != 0) {
            throw new IllegalArgumentException(op.tag() + " of " + length + " bytes at offset " + offset + " on '"
                    + name() + "' is not block-aligned: offsets and lengths are positive multiples of " + block);
        }
        if (offset < 0 || offset > capacity - length) {
            throw new TenantSpaceException("tenant '" + tenant + "' may not " + op.tag() + " [" + offset + ", "
                    + (offset + length) + ") of its space '" + space + "': the space holds " + capacity
                    + " bytes, and what lies beyond belongs to other tenants of the shared device '"
                    + device.name() + "'");
        }
        return start + offset;
    }

    private void checkOpen() {
        if (!open) {
            throw new IllegalStateException("device '" + name() + "' is closed");
        }
    }

    @Override
    public String toString() {
        return "TenantSpace[" + name() + " @" + start + "+" + capacity + " of " + device.name() + "]";
    }
}
