package io.most.device;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The bytes {@code [start, start + capacity)} of a shared device as a device of their own: a hybrid
 * cache puts its two engines (bucket pages and regions), and several caches theirs, on one tiered
 * volume, as CacheLib's two flash engines share one Cerberus device. A cache owns and closes the devices
 * it is given, but the shared device belongs to whoever opened it, so {@link #close()} only marks the
 * slice closed. Thread-safe as the shared device is.
 *
 * <p>It implements {@link BlockDevice} itself rather than forwarding: an operation the interface gains
 * must be given its offset translation here, not pass through to the shared device untranslated.
 * Statistics are the shared device's (both slices see the volume's counters).
 */
public final class DeviceSlice implements BlockDevice {
    private final BlockDevice device;
    private final long start;
    private final long capacity;
    private final String name;
    private volatile boolean open = true;

    /**
     * A view of {@code capacity} bytes of {@code device} from {@code start}, called {@code name}.
     *
     * @throws IllegalArgumentException if the range is not block-aligned or not inside {@code device}
     */
    public DeviceSlice(BlockDevice device, long start, long capacity, String name) {
        int block = device.blockSize();
        if (start < 0 || capacity <= 0 || start % block != 0 || capacity % block != 0
                || start + capacity > device.capacity()) {
            throw new IllegalArgumentException("slice [" + start + ", " + (start + capacity) + ") of device '"
                    + device.name() + "' (" + device.capacity() + " bytes, blocks of " + block
                    + ") must be block-aligned and inside the device");
        }
        this.device = device;
        this.start = start;
        this.capacity = capacity;
        this.name = name;
    }

    @Override
    public String name() {
        return name;
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
        checkOpen();
        Batches.checkAll(name, blockSize(), capacity, requests);
        List<IoRequest> moved = new ArrayList<>(requests.size());
        for (IoRequest r : requests) {
            moved.add(new IoRequest(r.op(), start + r.offset(), r.buffer()));
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

    @Override
    public DeviceStats stats() {
        return device.stats();
    }

    @Override
    public boolean isOpen() {
        return open && device.isOpen();
    }

    /** Marks the slice closed; the shared device stays open for its owner to close. */
    @Override
    public void close() {
        open = false;
    }

    @Override
    public MemorySegment allocate(Arena arena, long bytes) {
        return device.allocate(arena, bytes);
    }

    /** The shared device's offset of a request checked against this slice (its alignment and bounds, by its name). */
    private long translate(IoOp op, long offset, long length) {
        checkOpen();
        Batches.checkAccess(name, blockSize(), capacity, op, offset, length);
        return start + offset;
    }

    private void checkOpen() {
        if (!open) {
            throw new IllegalStateException("device '" + name + "' is closed");
        }
    }

    @Override
    public String toString() {
        return "DeviceSlice[" + device.name() + " @" + start + "+" + capacity + "]";
    }
}
